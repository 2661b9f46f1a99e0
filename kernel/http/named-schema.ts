import type { TSchema } from 'typebox';
import * as records from '../contracts/records.js';
import { SCHEMA_NAME } from '../contracts/records.js';

/**
 * The annotation that names a schema as a shared component of the OpenAPI document. It is an `x-` keyword, which
 * validation and serialisation ignore, rather than an `$id`: a schema keeps being used inline by every route (so
 * the validator needs no `$ref` support and responses serialise exactly as before), and it survives
 * `Type.Optional`, which copies the schema's keywords. The OpenAPI plugin turns each use into a `$ref`.
 * The records (kernel/contracts/records.ts) carry their names from the start.
 */
export { SCHEMA_NAME };

const named = new Map<string, TSchema>();

/** Names a schema (Error, ...) for the API description; returns the same schema. */
export function namedSchema<T extends TSchema>(name: string, schema: T): T {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`schema name ${name} must be PascalCase`);
  const existing = named.get(name);
  if (existing !== undefined && existing !== schema) throw new Error(`schema name ${name} is given to two schemas`);
  (schema as Record<string, unknown>)[SCHEMA_NAME] = name;
  named.set(name, schema);
  return schema;
}

for (const value of Object.values(records)) {
  const name = typeof value === 'object' && value !== null ? (value as unknown as Record<string, unknown>)[SCHEMA_NAME] : undefined;
  if (typeof name === 'string') namedSchema(name, value as TSchema);
}

/** Every named schema, by name (the components of the OpenAPI document). */
export function namedSchemas(): ReadonlyMap<string, TSchema> {
  return named;
}
