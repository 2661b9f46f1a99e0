import { TaskloomError } from '../../kernel/errors.js';
import type { Outputs } from '../credentials/decorators.js';
import type { TaskOutputOption } from './task-options.js';

/** Recorded on the execution as `output`. */
export interface OutputReport {
  pushed: number;
  error?: string;
  /** The catalogue code of the failure, when it had one (UPSTREAM_ERROR, CREDENTIAL_NOT_FOUND, ...). */
  code?: string;
}

const isRow = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `result.data` as rows: an array of objects as it is, one object as one row; anything else is refused. */
export function rowsOf(data: unknown): Record<string, unknown>[] | string {
  if (Array.isArray(data)) {
    const bad = data.findIndex((row) => !isRow(row));
    return bad < 0 ? data : `result.data[${bad}] is not an object; an output needs an array of objects or one object`;
  }
  if (isRow(data)) return [data];
  const kind = data === null ? 'null' : data === undefined ? 'empty' : typeof data;
  return `result.data is ${kind}; an output needs an array of objects or one object`;
}

/** Pushes the run's data to the task's output target. Never throws; messages never hold the credential's token. */
export async function pushOutput(outputs: Outputs, option: TaskOutputOption, data: unknown): Promise<OutputReport> {
  const rows = rowsOf(data);
  if (typeof rows === 'string') return { pushed: 0, error: rows };
  if (rows.length === 0) return { pushed: 0 };
  try {
    return { pushed: await outputs.push(option.credentialId, option.tableId, rows) };
  } catch (error) {
    if (error instanceof TaskloomError) return { pushed: 0, error: error.message, code: error.code };
    return { pushed: 0, error: 'pushing the rows failed' };
  }
}
