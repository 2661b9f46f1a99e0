import type { ExecutionRecord, ExecutionSummary } from '../../../kernel/contracts/records.js';
import type { ExecutionQuery } from '../../../kernel/contracts/storage.js';

/**
 * What the history keeps in memory per execution: the summary (enough to filter, sort and answer
 * `summaries`) and where the full record sits in the journal. Mutated in place on update.
 */
export interface IndexEntry extends ExecutionSummary {
  startedAtMs: number;
  /** First-insertion order: breaks `startedAt` ties (later first) and orders compaction. */
  seq: number;
  offset: number;
  length: number;
  /** The record while its line is not yet durable (or not yet in the file); readers use it instead. */
  pending?: ExecutionRecord;
  /** Which write `pending` belongs to, so an older fsync does not clear a newer record. */
  token: number;
}

export interface Location {
  offset: number;
  length: number;
  pending?: ExecutionRecord;
  token: number;
}

/** The summary fields of a record or an index entry, as a new object. */
export function summaryOf(source: ExecutionSummary): ExecutionSummary {
  const { executionId, taskId, taskName, status, trigger, startedAt, durationMs, outcome, changed } = source;
  return { executionId, taskId, taskName, status, trigger, startedAt, durationMs, ...(outcome === undefined ? {} : { outcome }), ...(changed === undefined ? {} : { changed }) };
}

/**
 * A new index entry, written out field by field: every entry then shares one hidden class. Built by object
 * spread, V8 gave each of them its own (about 400 bytes apiece: 38 MB at 100,000 executions).
 */
function newEntry(record: ExecutionRecord, startedAtMs: number, seq: number, location: Location): IndexEntry {
  return {
    executionId: record.executionId,
    taskId: record.taskId,
    taskName: record.taskName,
    status: record.status,
    trigger: record.trigger,
    startedAt: record.startedAt,
    durationMs: record.durationMs,
    outcome: record.outcome,
    changed: record.changed,
    startedAtMs,
    seq,
    offset: location.offset,
    length: location.length,
    pending: location.pending,
    token: location.token,
  };
}

function toMs(iso: unknown): number {
  const ms = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(ms) ? ms : 0;
}

function boundMs(name: string, iso: string | undefined, fallback: number): number {
  if (iso === undefined) return fallback;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new TypeError(`executions: ${name} must be an ISO timestamp, got ${JSON.stringify(iso)}`);
  return ms;
}

function count(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`executions: ${name} must be a whole number >= 0, got ${value}`);
  return value;
}

const before = (a: IndexEntry, ms: number, seq: number): boolean => a.startedAtMs < ms || (a.startedAtMs === ms && a.seq < seq);

/** Executions by id (insertion order) and by (startedAt, seq) ascending for range queries. */
export class ExecutionIndex {
  private readonly byId = new Map<string, IndexEntry>();
  private sorted: IndexEntry[] = [];
  private nextSeq = 0;
  /** While replaying on open the sorted array is built once at the end instead of per line. */
  private bulk = false;

  get size(): number {
    return this.byId.size;
  }

  get(id: string): IndexEntry | undefined {
    return this.byId.get(id);
  }

  /** In first-insertion order. */
  entries(): IterableIterator<IndexEntry> {
    return this.byId.values();
  }

  beginBulk(): void {
    this.bulk = true;
  }

  endBulk(): void {
    this.bulk = false;
    this.sorted = [...this.byId.values()].sort((a, b) => a.startedAtMs - b.startedAtMs || a.seq - b.seq);
  }

  set(record: ExecutionRecord, location: Location): IndexEntry {
    const startedAtMs = toMs(record.startedAt);
    let entry = this.byId.get(record.executionId);
    const resort = entry !== undefined && entry.startedAtMs !== startedAtMs && !this.bulk;
    if (entry && resort) this.unsort(entry);
    if (!entry) {
      entry = newEntry(record, startedAtMs, this.nextSeq++, location);
      this.byId.set(entry.executionId, entry);
      if (!this.bulk) this.insertSorted(entry);
      return entry;
    }
    Object.assign(entry, summaryOf(record), { outcome: record.outcome, changed: record.changed, startedAtMs }, location);
    if (!location.pending) entry.pending = undefined;
    if (resort) this.insertSorted(entry);
    return entry;
  }

  delete(id: string): boolean {
    const entry = this.byId.get(id);
    if (!entry) return false;
    this.byId.delete(id);
    if (!this.bulk) this.unsort(entry);
    return true;
  }

  clear(): void {
    this.byId.clear();
    this.sorted = [];
  }

  /** Removes and returns the entries that started before `ms`: a prefix of the sorted order, so no scan. */
  removeBefore(ms: number): IndexEntry[] {
    const removed = this.sorted.splice(0, this.lowerBound(ms, Number.NEGATIVE_INFINITY));
    for (const entry of removed) this.byId.delete(entry.executionId);
    return removed;
  }

  /** Matching entries, newest `startedAt` first, after `offset` and `limit`. */
  select(query: ExecutionQuery = {}): IndexEntry[] {
    const skip = count('offset', query.offset, 0);
    const limit = count('limit', query.limit, Number.POSITIVE_INFINITY);
    const [lo, hi] = this.range(query);
    const out: IndexEntry[] = [];
    let skipped = 0;
    for (let i = hi - 1; i >= lo && out.length < limit; i--) {
      const entry = this.sorted[i];
      if (!matches(entry, query)) continue;
      if (skipped < skip) skipped += 1;
      else out.push(entry);
    }
    return out;
  }

  count(query: ExecutionQuery = {}): number {
    const [lo, hi] = this.range(query);
    if (query.status === undefined && query.taskId === undefined && query.trigger === undefined && query.outcome === undefined && query.changed === undefined) return Math.max(0, hi - lo);
    let n = 0;
    for (let i = lo; i < hi; i++) if (matches(this.sorted[i], query)) n += 1;
    return n;
  }

  /** Index range [lo, hi) of `sorted` whose startedAt lies within from..to inclusive. */
  private range(query: ExecutionQuery): [number, number] {
    const fromMs = boundMs('from', query.from, Number.NEGATIVE_INFINITY);
    const toMs = boundMs('to', query.to, Number.POSITIVE_INFINITY);
    return [this.lowerBound(fromMs, Number.NEGATIVE_INFINITY), this.lowerBound(toMs, Number.POSITIVE_INFINITY)];
  }

  /** First position whose (startedAtMs, seq) is not before (ms, seq). */
  private lowerBound(ms: number, seq: number): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.sorted[mid], ms, seq)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insertSorted(entry: IndexEntry): void {
    const at = this.lowerBound(entry.startedAtMs, entry.seq);
    // Usually at the end (new runs start last), where splice is cheap.
    if (at === this.sorted.length) this.sorted.push(entry);
    else this.sorted.splice(at, 0, entry);
  }

  private unsort(entry: IndexEntry): void {
    let at = this.lowerBound(entry.startedAtMs, entry.seq);
    if (this.sorted[at] !== entry) at = this.sorted.indexOf(entry);
    if (at !== -1) this.sorted.splice(at, 1);
  }
}

function matches(entry: IndexEntry, query: ExecutionQuery): boolean {
  return (query.status === undefined || entry.status === query.status) && (query.taskId === undefined || entry.taskId === query.taskId)
    && (query.trigger === undefined || entry.trigger === query.trigger)
    && (query.outcome === undefined || (entry.outcome ?? entry.status) === query.outcome)
    && (query.changed === undefined || entry.changed === query.changed);
}
