import type { ExecutionRecord } from '../../kernel/contracts/records.js';

const json = (value: unknown): string => (value === undefined ? '' : JSON.stringify(value));
const plain = (value: unknown): string | number => (typeof value === 'number' ? value : typeof value === 'string' ? value : json(value));

/**
 * The CSV export's columns, in order: one row per execution, flat values as they are and nested ones
 * (captures, result data, logs, the error) as JSON text. An absent value is an empty cell.
 */
export const CSV_COLUMNS: ReadonlyArray<{ key: string; value: (record: ExecutionRecord) => string | number }> = [
  { key: 'executionId', value: (r) => plain(r.executionId) },
  { key: 'taskId', value: (r) => plain(r.taskId) },
  { key: 'taskName', value: (r) => plain(r.taskName) },
  { key: 'status', value: (r) => plain(r.status) },
  { key: 'trigger', value: (r) => plain(r.trigger) },
  { key: 'startedAt', value: (r) => plain(r.startedAt) },
  { key: 'finishedAt', value: (r) => plain(r.finishedAt) },
  { key: 'durationMs', value: (r) => plain(r.durationMs) },
  { key: 'finalUrl', value: (r) => plain(r.result?.finalUrl) },
  { key: 'title', value: (r) => plain(r.result?.title) },
  { key: 'errorMessage', value: (r) => plain(r.result?.error?.message) },
  { key: 'errorActionIndex', value: (r) => plain(r.result?.error?.actionIndex) },
  { key: 'captures', value: (r) => json(r.result?.captures) },
  { key: 'data', value: (r) => json(r.result?.data) },
  { key: 'logs', value: (r) => json(r.logs) },
  // Added after the first release of the format: last, so that earlier columns keep their positions.
  { key: 'outcome', value: (r) => plain(r.outcome) },
  // Run intelligence (README "Run intelligence"): whether the rows changed, the diff, the broken expectations, the compared screenshots.
  { key: 'changed', value: (r) => (typeof r.changed === 'boolean' ? String(r.changed) : '') },
  { key: 'diff', value: (r) => json(r.diff) },
  { key: 'violations', value: (r) => json(r.violations) },
  { key: 'screenshots', value: (r) => json(r.screenshots) },
];

/** One CSV row (values in column order). */
export const csvRow = (record: ExecutionRecord): Array<string | number> => CSV_COLUMNS.map((column) => column.value(record));
