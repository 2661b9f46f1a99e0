import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { Errors, TaskloomError } from '../errors.js';

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
 * The service's one validator compiler. Validates with TypeBox instead of Ajv, whose `coerceTypes` would quietly turn
 * `"name": 123` into `"123"`: a body is checked as sent, while the querystring and path parameters
 * (always strings on the wire) are converted to their declared types first.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const validator = Compile(schema);
  const where = httpPart ?? 'body';
  return (input: unknown): { value?: unknown; error?: TaskloomError } => {
    // Defaults fill in what was omitted (e.g. `limit`); only wire strings are converted.
    const value = where === 'body' ? input : Value.Convert(schema, Value.Default(schema, input));
    if (validator.Check(value)) return { value };
    const first = validator.Errors(value)[0] as SchemaError | undefined;
    const message = first ? describeError(where, first) : `${where} is invalid`;
    return { error: Errors.VALIDATION_ERROR({ message }) };
  };
};
