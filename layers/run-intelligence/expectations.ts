import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { ExpectOption } from './expect-option.js';
import { fieldOf, isEmpty, rowsOf } from './rows.js';

import type { Violation } from './violation.js';

export type { Violation };

/** The previous successful run of the task, as drift needs it; absent on a task's first success. */
export interface Baseline { rows: number }

const EXAMPLES = 3;
/** Schema errors listed: beyond this the rest are counted in the last message, not listed. */
const SCHEMA_VIOLATIONS = 10;

const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;

/** Ajv loads with the first schema to check, not with the service (test/kernel/start-up-loading). */
function ajvOf(): Ajv {
  if (!ajv) {
    const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
    // ajv-formats is CommonJS: its `default` is the plugin (also the module itself).
    const formats = require('ajv-formats') as { default?: (ajv: Ajv) => Ajv } & ((ajv: Ajv) => Ajv);
    ajv = new AjvClass({ allErrors: true, strict: false });
    (formats.default ?? formats)(ajv);
  }
  return ajv;
}

/** Compiled schemas by their text: a task's schema is compiled once, not at every run. Bounded, oldest out. */
const compiled = new Map<string, ValidateFunction>();
const COMPILED_MAX = 200;

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (!validate) {
    validate = ajvOf().compile(schema);
    if (compiled.size >= COMPILED_MAX) compiled.delete(compiled.keys().next().value as string);
    compiled.set(text, validate);
  }
  return validate;
}

/** Why a schema cannot be used (for a 400 when a task is saved), or undefined when it compiles. */
export function schemaProblem(schema: Record<string, unknown>): string | undefined {
  try {
    validatorFor(schema);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Checks `data` against a task's expectations; an empty list when all hold. Pure apart from the schema cache. */
export function checkExpectations(expect: ExpectOption, data: unknown, baseline?: Baseline): Violation[] {
  const rows = rowsOf(data);
  const violations: Violation[] = [];
  if (expect.schema) violations.push(...schemaViolations(expect.schema, data, rows));
  if (expect.minRows !== undefined && rows.length < expect.minRows) {
    violations.push({ rule: 'minRows', message: `${rows.length} rows, expected at least ${expect.minRows}`, examples: rows.slice(0, EXAMPLES) });
  }
  if (expect.maxRows !== undefined && rows.length > expect.maxRows) {
    violations.push({ rule: 'maxRows', message: `${rows.length} rows, expected at most ${expect.maxRows}`, examples: rows.slice(0, EXAMPLES) });
  }
  for (const field of expect.required ?? []) {
    const bad = rows.filter((row) => isEmpty(fieldOf(row, field)));
    if (bad.length > 0) {
      violations.push({ rule: 'required', field, message: `${field} is missing or empty in ${bad.length} of ${rows.length} rows`, examples: bad.slice(0, EXAMPLES) });
    }
  }
  if (expect.drift && baseline && baseline.rows > 0) {
    const changePct = ((rows.length - baseline.rows) / baseline.rows) * 100;
    const { rowsDownPct, rowsUpPct } = expect.drift;
    if (rowsDownPct !== undefined && -changePct > rowsDownPct) {
      violations.push({ rule: 'drift', message: `rows fell from ${baseline.rows} to ${rows.length} (${round(-changePct)} %), more than ${rowsDownPct} %`, examples: rows.slice(0, EXAMPLES) });
    }
    if (rowsUpPct !== undefined && changePct > rowsUpPct) {
      violations.push({ rule: 'drift', message: `rows grew from ${baseline.rows} to ${rows.length} (${round(changePct)} %), more than ${rowsUpPct} %`, examples: rows.slice(0, EXAMPLES) });
    }
  }
  return violations;
}

function schemaViolations(schema: Record<string, unknown>, data: unknown, rows: unknown[]): Violation[] {
  const validate = validatorFor(schema);
  if (validate(data)) return [];
  const errors = validate.errors ?? [];
  const listed = errors.slice(0, SCHEMA_VIOLATIONS).map((error) => schemaViolation(error, data, rows));
  if (errors.length > SCHEMA_VIOLATIONS) {
    listed.push({ rule: 'schema', message: `and ${errors.length - SCHEMA_VIOLATIONS} more schema errors`, examples: [] });
  }
  return listed;
}

/** An Ajv error in our words: the field is the path inside a row (`/3/price` on an array is row 3, field price). */
function schemaViolation(error: ErrorObject, data: unknown, rows: unknown[]): Violation {
  const parts = error.instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let example: unknown;
  let fieldParts = parts;
  if (Array.isArray(data) && parts.length > 0 && /^\d+$/.test(parts[0]!)) {
    example = rows[Number(parts[0])];
    fieldParts = parts.slice(1);
  } else if (!Array.isArray(data)) {
    example = data;
  }
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') fieldParts = [...fieldParts, error.params.missingProperty];
  const field = fieldParts.length > 0 ? fieldParts.join('.') : undefined;
  const where = error.instancePath === '' ? 'data' : error.instancePath;
  return { rule: 'schema', ...(field ? { field } : {}), message: `${where} ${error.message ?? 'does not match the schema'}`, examples: example === undefined ? [] : [example] };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Why a task's `expect` cannot be used, as a 400's message (`body.expect...`), or undefined when it can. */
export function expectProblem(expect: ExpectOption | null | undefined): string | undefined {
  if (!expect) return undefined;
  if (expect.minRows !== undefined && expect.maxRows !== undefined && expect.minRows > expect.maxRows) {
    return `body.expect.minRows (${expect.minRows}) is above body.expect.maxRows (${expect.maxRows})`;
  }
  const problem = expect.schema && schemaProblem(expect.schema);
  return problem ? `body.expect.schema is not a usable JSON Schema: ${problem}` : undefined;
}
