import fp from 'fastify-plugin';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import type { Compile } from 'typebox/compile';
import type { Value } from 'typebox/value';
import { Errors, TaskloomError } from '../errors.js';

interface Engine {
  Compile: typeof Compile;
  Value: typeof Value;
}

// TypeBox's compiler and value functions are most of TypeBox's files: they load with the first request that
// has something to validate (see `lazyValidation`), not with the service.
let engine: Engine | undefined;
let loading: Promise<Engine> | undefined;

/** Resolves once the validation engine is loaded; loads it on the first call. */
export function loadValidationEngine(): Promise<Engine> {
  loading ??= Promise.all([import('typebox/compile'), import('typebox/value')]).then(([compile, value]) => {
    engine = { Compile: compile.Compile, Value: value.Value };
    return engine;
  });
  return loading;
}

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

const field = (where: string, pointer: string) => where + pointer.replace(/\//g, '.');

/** One sentence naming the offending field, e.g. `body.actions.0.type must be one of navigate, click`. */
export function describeError(where: string, error: SchemaError): string {
  const at = field(where, error.instancePath);
  switch (error.keyword) {
    case 'boolean':
      return `${at} is not an accepted field`;
    case 'additionalProperties':
      return `${at}.${String((error.params.additionalProperties as string[])[0])} is not an accepted field`;
    case 'required': {
      const missing = (error.params.requiredProperties as string[]).map((name) => `${at}.${name}`);
      return missing.length === 1 ? `${missing[0]} is required` : `${missing.join(', ')} are required`;
    }
    case 'enum':
      return `${at} must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `${at} ${error.message}`;
  }
}

/**
 * Where the input holds a NUL character (in a string or a key), e.g. `body.actions.0.value`: no id, name or value of
 * the API has one, and PostgreSQL refuses it in a text parameter (ids and e-mails gave 500).
 */
function nulPath(input: unknown, where: string): string | undefined {
  // A loop, not recursion: a body's depth is whatever the caller sent.
  const pending: [unknown, string][] = [[input, where]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, at] = next;
    if (typeof value === 'string' && value.includes('\u0000')) return at;
    if (!value || typeof value !== 'object') continue;
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return at;
      pending.push([item, `${at}.${key}`]);
    }
  }
  return undefined;
}

/**
 * The service's one validator compiler. Validates with TypeBox instead of Ajv, whose `coerceTypes` would quietly turn
 * `"name": 123` into `"123"`: a body is checked as sent, while the querystring and path parameters
 * (always strings on the wire) are converted to their declared types first.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  let validator: ReturnType<typeof Compile<TSchema>> | undefined;
  const where = httpPart ?? 'body';
  return (input: unknown): { value?: unknown; error?: TaskloomError } => {
    // Compiled on the route's first request; `lazyValidation` has loaded the engine by then.
    if (!engine) throw new Error('the validation engine is not loaded: register lazyValidation before the routes');
    const { Value } = engine;
    validator ??= engine.Compile(schema);
    // Defaults fill in what was omitted (e.g. `limit`); only wire strings are converted.
    const value = where === 'body' ? input : Value.Convert(schema, Value.Default(schema, input));
    const nul = nulPath(value, where);
    if (nul !== undefined) return { error: Errors.VALIDATION_ERROR({ message: `${nul} holds a NUL character` }) };
    if (validator.Check(value)) return { value };
    const first = validator.Errors(value)[0] as SchemaError | undefined;
    const message = first ? describeError(where, first) : `${where} is invalid`;
    return { error: Errors.VALIDATION_ERROR({ message }) };
  };
};

const VALIDATED_PARTS = ['body', 'querystring', 'query', 'params', 'headers'] as const;

/**
 * Routes with something to validate load the validation engine before their first validation (Fastify validates
 * right after the preValidation hooks, and a route's own hooks run after the global ones, so an anonymous caller
 * is refused before anything loads). Routes without a schema to check never wait for it.
 */
async function lazyValidation(app: FastifyInstance): Promise<void> {
  const ensureEngine = (_request: unknown, _reply: unknown, done: (error?: Error) => void) => {
    if (engine) return done();
    loadValidationEngine().then(() => done(), done);
  };
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema || !VALIDATED_PARTS.some((part) => schema[part] !== undefined)) return;
    const own = route.preValidation;
    route.preValidation = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), ensureEngine];
  });
}

export default fp(lazyValidation, { name: 'taskloom-lazy-validation' });
