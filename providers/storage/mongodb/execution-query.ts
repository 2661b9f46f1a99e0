import type { Filter, Sort } from 'mongodb';
import type { ExecutionRecord, ExecutionSummary } from '../../../kernel/contracts/records.js';
import type { ExecutionQuery } from '../../../kernel/contracts/storage.js';
import type { Stored } from './stored.js';

/** Newest first; among equal start times the later insertion first. Matches every executions index. */
export const NEWEST_FIRST: Sort = { startedAt: -1, seq: -1 };

export interface ExecutionFind {
  filter: Filter<Stored>;
  sort: Sort;
  skip: number;
  /** Undefined: no limit. 0 means "none" here (the driver would read 0 as "no limit"). */
  limit?: number;
}

function bound(name: string, iso: string): Date {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new TypeError(`executions: ${name} must be an ISO timestamp, got ${JSON.stringify(iso)}`);
  return new Date(ms);
}

function word(name: string, value: string): string {
  if (!/^\w+$/.test(value)) throw new TypeError(`executions: ${name} must be a word, got ${JSON.stringify(value)}`);
  return value;
}

function whole(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`executions: ${name} must be a whole number >= 0, got ${value}`);
  return value;
}

/** An ExecutionQuery as a MongoDB filter, sort and page; `paged: false` ignores limit and offset (for count). */
export function executionFind(query: ExecutionQuery = {}, paged = true): ExecutionFind {
  const filter: Filter<Stored> = {};
  if (query.status !== undefined) filter.status = query.status;
  if (query.taskId !== undefined) filter.taskId = query.taskId;
  // No field of its own (documents written before the filter existed have none): the summary JSON has it, and a
  // quote inside a string value is always escaped, so this key-value text cannot match inside a task name.
  const and: Filter<Stored>[] = [];
  if (query.trigger !== undefined) and.push({ summary: { $regex: `"trigger":"${word('trigger', query.trigger)}"[,}]` } });
  if (query.outcome !== undefined) {
    // Kept in the summary only; a record written before outcomes existed is matched by its status of the same name.
    const outcome = word('outcome', query.outcome);
    and.push({ $or: [{ summary: { $regex: `"outcome":"${outcome}"[,}]` } }, { status: outcome, summary: { $not: /"outcome":"/ } }] });
  }
  if (query.changed !== undefined) and.push({ summary: { $regex: `"changed":${query.changed === true}[,}]` } });
  if (and.length === 1) Object.assign(filter, and[0]);
  if (and.length > 1) filter.$and = and;
  const range: { $gte?: Date; $lte?: Date } = {};
  if (query.from !== undefined) range.$gte = bound('from', query.from);
  if (query.to !== undefined) range.$lte = bound('to', query.to);
  if (range.$gte || range.$lte) filter.startedAt = range;
  const skip = paged && query.offset !== undefined ? whole('offset', query.offset) : 0;
  const limit = paged && query.limit !== undefined ? whole('limit', query.limit) : undefined;
  return { filter, sort: NEWEST_FIRST, skip, limit };
}

export function summaryOf(record: ExecutionRecord): ExecutionSummary {
  const { executionId, taskId, taskName, status, trigger, startedAt, durationMs, outcome, changed } = record;
  return { executionId, taskId, taskName, status, trigger, startedAt, durationMs, ...(outcome === undefined ? {} : { outcome }), ...(changed === undefined ? {} : { changed }) };
}

/** The queryable fields kept beside a record's JSON. A startedAt that is not a date sorts as 1970, as in the json store. */
export function executionFields(record: ExecutionRecord): Record<string, unknown> {
  const ms = typeof record.startedAt === 'string' ? Date.parse(record.startedAt) : Number.NaN;
  return {
    taskId: typeof record.taskId === 'string' ? record.taskId : null,
    status: typeof record.status === 'string' ? record.status : null,
    startedAt: new Date(Number.isFinite(ms) ? ms : 0),
    summary: JSON.stringify(summaryOf(record)),
  };
}
