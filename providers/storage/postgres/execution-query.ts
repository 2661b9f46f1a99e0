import type { ExecutionRecord, ExecutionSummary } from '../../../kernel/contracts/records.js';
import type { ExecutionQuery } from '../../../kernel/contracts/storage.js';
import { timestampOf } from './json-doc.js';

/** Newest first; among equal start times the later insertion first. Every index on executions has this order. */
export const NEWEST_FIRST = 'ORDER BY started_at DESC, seq DESC';

export interface ExecutionSql {
  /** `WHERE ...` or the empty string. */
  where: string;
  /** `LIMIT ... OFFSET ...` or the empty string. */
  page: string;
  params: unknown[];
}

function bound(name: string, iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new TypeError(`executions: ${name} must be an ISO timestamp, got ${JSON.stringify(iso)}`);
  return new Date(ms).toISOString();
}

function whole(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`executions: ${name} must be a whole number >= 0, got ${value}`);
  return value;
}

/** The SQL for an ExecutionQuery; `paged: false` ignores limit and offset (for count). */
export function executionSql(query: ExecutionQuery = {}, paged = true): ExecutionSql {
  const params: unknown[] = [];
  const conditions: string[] = [];
  const add = (column: string, operator: string, value: unknown): void => {
    params.push(value);
    conditions.push(`${column} ${operator} $${params.length}`);
  };
  if (query.status !== undefined) add('status', '=', query.status);
  if (query.taskId !== undefined) add('task_id', '=', query.taskId);
  if (query.trigger !== undefined) add('trigger', '=', query.trigger);
  // Kept in the summary only; a record written before outcomes existed is matched by its status of the same name.
  if (query.outcome !== undefined) add("COALESCE(summary->>'outcome', status)", '=', query.outcome);
  if (query.changed !== undefined) add("summary->>'changed'", '=', String(query.changed === true));
  if (query.from !== undefined) add('started_at', '>=', bound('from', query.from));
  if (query.to !== undefined) add('started_at', '<=', bound('to', query.to));
  let page = '';
  if (paged && query.limit !== undefined) {
    params.push(whole('limit', query.limit));
    page += ` LIMIT $${params.length}`;
  }
  if (paged && query.offset !== undefined) {
    params.push(whole('offset', query.offset));
    page += ` OFFSET $${params.length}`;
  }
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, page: page.trim(), params };
}

export function summaryOf(record: ExecutionRecord): ExecutionSummary {
  const { executionId, taskId, taskName, status, trigger, startedAt, durationMs, outcome, changed } = record;
  return { executionId, taskId, taskName, status, trigger, startedAt, durationMs, ...(outcome === undefined ? {} : { outcome }), ...(changed === undefined ? {} : { changed }) };
}

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The column values of a record, in the order of `EXECUTION_COLUMNS`. A record whose startedAt
 * is not a date sorts as 1970, as in the json store.
 */
export function executionRow(record: ExecutionRecord, json: string): unknown[] {
  const startedAt = timestampOf(record.startedAt) ?? new Date(0);
  const duration = typeof record.durationMs === 'number' && Number.isFinite(record.durationMs) ? record.durationMs : null;
  return [
    record.executionId,
    textOrNull(record.taskId),
    textOrNull(record.status),
    textOrNull(record.trigger),
    startedAt.toISOString(),
    duration,
    JSON.stringify(summaryOf(record)),
    json,
  ];
}

export const EXECUTION_COLUMNS = ['execution_id', 'task_id', 'status', 'trigger', 'started_at', 'duration_ms', 'summary', 'doc'];
