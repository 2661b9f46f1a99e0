import { Type, type Static } from 'typebox';

/**
 * The task option `expect`: what a successful run's `result.data` must look like (expectations.ts). Outside the
 * kernel's Task record, as `antiBot` is: the tasks plugin adds it to the bodies it validates.
 */
export const ExpectOption = Type.Object({
  schema: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'a JSON Schema (draft-07, Ajv) that result.data must match' })),
  minRows: Type.Optional(Type.Integer({ minimum: 0, description: 'at least this many rows (an array is its rows; an object is one row; null is none)' })),
  maxRows: Type.Optional(Type.Integer({ minimum: 0, description: 'at most this many rows' })),
  required: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100, description: 'fields (dotted paths) present and non-empty in every row: not null, not a blank string, not an empty array' })),
  drift: Type.Optional(Type.Object({
    rowsDownPct: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100, description: 'rows fell by more than this share (%) against the previous successful run' })),
    rowsUpPct: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'rows grew by more than this share (%) against the previous successful run' })),
  }, { additionalProperties: false })),
  onInvalid: Type.Optional(Type.Enum(['fail', 'warn'], { description: "'fail' (default): a violated expectation ends the run error with outcome invalid_data; 'warn': the run stays success and lists the violations" })),
}, { additionalProperties: false, description: 'expectations on result.data (README: Run intelligence)' });
export type ExpectOption = Static<typeof ExpectOption>;
