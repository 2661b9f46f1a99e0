import { Type } from 'typebox';
import { namedSchema } from './named-schema.js';

/**
 * Every error answer, as the error handler writes it: the catalogue code, what went wrong, and the id of the
 * request (also in the `X-Request-Id` header and in the server's log lines for it). Routes use this one
 * schema for their error responses, so serialisation keeps every field and the OpenAPI document shows it.
 */
export const ErrorBody = namedSchema('Error', Type.Object({
  error: Type.String({ description: 'stable upper-case code from the error catalogue' }),
  details: Type.Optional(Type.String({ description: 'what went wrong and what to do' })),
  requestId: Type.Optional(Type.String({ description: 'the request id (X-Request-Id), to find its log lines' })),
}));

/** Builds the body; the only shape an error reaches a client in. */
export function errorBody(code: string, details: string, requestId: string): { error: string; details: string; requestId: string } {
  return { error: code, details, requestId };
}
