// The JSON body parser with a nesting limit: every scope's (plugins/json-depth) and a scope that replaces it
// (the runs plugin's content types) use it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors } from '../../kernel/errors.js';

/** As Ruby's JSON: far beyond any task, bundle or setting, far below what recursive code (storage, V8's stringify) survives. */
export const MAX_JSON_DEPTH = 100;

/**
 * True when the JSON text nests arrays and objects deeper than `max`. One pass over the text, brackets inside
 * strings ignored; malformed text is left to the parser.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

type Done = (error: Error | null, body?: unknown) => void;
export type JsonParser = (request: FastifyRequest, body: string | Buffer, done: Done) => void;

/**
 * Fastify's JSON parser (prototype-poisoning checks included) behind a depth check: a body nested thousands deep
 * costs seconds to parse and overflows the stack of whatever walks it later, so it is refused with 400 first.
 */
export function depthLimitedJsonParser(app: FastifyInstance): JsonParser {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(Errors.VALIDATION_ERROR({ message: `body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels` }));
    }
    parse(request, text, done);
  };
}
