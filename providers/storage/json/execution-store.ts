import path from 'node:path';
import type { ExecutionRecord, ExecutionStatus, ExecutionSummary } from '../../../kernel/contracts/records.js';
import type { ExecutionMarkFilter, ExecutionQuery, ExecutionStore } from '../../../kernel/contracts/storage.js';
import { ExecutionIndex, summaryOf, type IndexEntry } from './execution-index.js';
import { Journal } from './journal.js';
import { decodeOp, encodeClear, encodeDelete, encodePut, isObject } from './journal-ops.js';
import { ownerMatches } from './mark-filter.js';
import { SerialLock } from './serial-lock.js';
import { worthCompacting, type JournalBacked, type StoreContext } from './store-context.js';

/** Records read from disk at once: bounds open positioned reads on a big `list()`. */
const READ_SLICE = 256;

/** Where `load` finds one record: still in memory (not yet durable) or at a byte range of the journal. */
type Planned = { record: ExecutionRecord } | { offset: number; length: number };

interface Staged {
  doc: ExecutionRecord;
  durable: Promise<void>;
}

function assertRecord(record: unknown): asserts record is ExecutionRecord {
  if (!isObject(record) || typeof record.executionId !== 'string' || record.executionId === '') {
    throw new TypeError('executions: a record must be an object with a non-empty string executionId');
  }
}

/**
 * The execution history: only an index lives in memory (summary fields plus the byte range of each
 * record's line); full records are read from the journal with positioned reads. Every mutation and
 * compaction runs under one lock, so offsets handed out at append time stay exact.
 */
export class JsonExecutionStore implements ExecutionStore, JournalBacked {
  private readonly index = new ExecutionIndex();
  private readonly lock = new SerialLock();
  private journal: Journal | undefined;
  private tokens = 0;
  private compacting = false;
  private retryAfterMs = 0;

  constructor(private readonly ctx: StoreContext) {}

  async open(): Promise<void> {
    this.index.beginBulk();
    this.journal = await Journal.open(path.join(this.ctx.dir, 'executions.jsonl'), this.ctx.logger, (line, offset) => this.replay(line, offset));
    this.index.endBulk();
  }

  check(): Promise<void> {
    return this.log.check();
  }

  async close(): Promise<void> {
    await this.lock.idle();
    await this.journal?.close();
  }

  async insert(record: ExecutionRecord): Promise<ExecutionRecord> {
    this.ctx.gate.assertOpen();
    assertRecord(record);
    // An existing id is replaced, keeping its place in insertion order.
    const staged = await this.lock.run(() => this.stage(record));
    await staged.durable;
    return structuredClone(staged.doc);
  }

  async update(executionId: string, change: (current: ExecutionRecord) => ExecutionRecord | undefined): Promise<ExecutionRecord | undefined> {
    this.ctx.gate.assertOpen();
    const staged = await this.lock.run(async (): Promise<Staged | undefined> => {
      const entry = this.index.get(executionId);
      if (!entry) return undefined;
      const [current] = await this.load([entry]);
      const next = change(structuredClone(current));
      if (next === undefined) return { doc: current, durable: this.log.settled() };
      if (isObject(next) && typeof next.then === 'function') throw new TypeError('executions: change must return the record, not a promise');
      assertRecord(next);
      if (next.executionId !== executionId) throw new TypeError(`executions: update must not change the executionId (${executionId})`);
      return this.stage(next);
    });
    await (staged?.durable ?? this.log.settled());
    return staged && structuredClone(staged.doc);
  }

  async get(executionId: string): Promise<ExecutionRecord | undefined> {
    this.ctx.gate.assertOpen();
    const entry = this.index.get(executionId);
    const [records] = await Promise.all([this.load(entry ? [entry] : []), this.log.settled()]);
    return records[0];
  }

  async list(query?: ExecutionQuery): Promise<ExecutionRecord[]> {
    this.ctx.gate.assertOpen();
    const entries = this.index.select(query);
    const [records] = await Promise.all([this.load(entries), this.log.settled()]);
    return records;
  }

  async summaries(query?: ExecutionQuery): Promise<ExecutionSummary[]> {
    this.ctx.gate.assertOpen();
    const summaries = this.index.select(query).map(summaryOf);
    await this.log.settled();
    return summaries;
  }

  async count(query?: Omit<ExecutionQuery, 'limit' | 'offset'>): Promise<number> {
    this.ctx.gate.assertOpen();
    const n = this.index.count(query);
    await this.log.settled();
    return n;
  }

  async delete(executionId: string): Promise<boolean> {
    this.ctx.gate.assertOpen();
    // Wrapped in an object: a bare promise returned from the section would hold the lock until fsync.
    const { durable } = await this.lock.run(() => {
      if (!this.index.get(executionId)) return { durable: undefined };
      const { durable } = this.log.append(encodeDelete(executionId));
      this.index.delete(executionId);
      this.maybeCompact();
      return { durable };
    });
    await (durable ?? this.log.settled());
    return durable !== undefined;
  }

  async clear(): Promise<number> {
    this.ctx.gate.assertOpen();
    const { removed, durable } = await this.lock.run(() => {
      const removed = this.index.size;
      if (removed === 0) return { removed, durable: this.log.settled() };
      const { durable } = this.log.append(encodeClear());
      this.index.clear();
      this.maybeCompact();
      return { removed, durable };
    });
    await durable;
    return removed;
  }

  async markAll(from: ExecutionStatus[], to: ExecutionStatus, finishedAt: string, filter: ExecutionMarkFilter = {}): Promise<number> {
    this.ctx.gate.assertOpen();
    const wanted = new Set(from);
    const { changed, durable } = await this.lock.run(async () => {
      const targets = [...this.index.entries()].filter((entry) => wanted.has(entry.status));
      let durable = this.log.settled();
      let changed = 0;
      for (let i = 0; i < targets.length; i += READ_SLICE) {
        for (const record of await this.load(targets.slice(i, i + READ_SLICE))) {
          if (!ownerMatches(record, filter)) continue; // the owner is not in the index: checked on the full record
          durable = this.stage({ ...record, status: to, finishedAt }).durable;
          changed += 1;
        }
      }
      return { changed, durable };
    });
    await durable;
    return changed;
  }

  async deleteStartedBefore(cutoffIso: string): Promise<string[]> {
    this.ctx.gate.assertOpen();
    const cutoffMs = Date.parse(cutoffIso);
    if (!Number.isFinite(cutoffMs)) throw new TypeError(`executions: cutoff must be an ISO timestamp, got ${JSON.stringify(cutoffIso)}`);
    // Wrapped in an object, as in delete(): the lock is held only while the lines are appended.
    const { ids, durable } = await this.lock.run(() => {
      const removed = this.index.removeBefore(cutoffMs);
      for (const entry of removed) this.log.append(encodeDelete(entry.executionId));
      if (removed.length > 0) this.maybeCompact();
      return { ids: removed.map((entry) => entry.executionId), durable: this.log.settled() };
    });
    await durable;
    return ids;
  }

  private get log(): Journal {
    if (!this.journal) throw new Error('executions journal is not open');
    return this.journal;
  }

  /** Appends the record and points the index at it; call under the lock. */
  private stage(record: ExecutionRecord): Staged {
    const json = JSON.stringify(record);
    const doc = JSON.parse(json) as ExecutionRecord;
    const { offset, length, durable } = this.log.append(encodePut(json));
    const token = ++this.tokens;
    const entry = this.index.set(doc, { offset, length, pending: doc, token });
    durable.then(
      () => {
        // Cleared, not deleted: deleting a property would give the entry a hidden class of its own.
        if (entry.token === token) entry.pending = undefined;
      },
      () => undefined,
    );
    this.maybeCompact();
    return { doc, durable };
  }

  /** Full records for `entries`, as fresh copies. Locations are taken synchronously, before any await. */
  private async load(entries: IndexEntry[]): Promise<ExecutionRecord[]> {
    if (entries.length === 0) return [];
    const reader = this.log.openReader();
    const plan: Planned[] = entries.map((entry) =>
      entry.pending ? { record: structuredClone(entry.pending) } : { offset: entry.offset, length: entry.length },
    );
    try {
      const records: ExecutionRecord[] = [];
      for (let i = 0; i < plan.length; i += READ_SLICE) {
        const reads = plan
          .slice(i, i + READ_SLICE)
          .map((item) => ('record' in item ? item.record : reader.read(item.offset, item.length).then((line) => this.parse(line, item.offset))));
        records.push(...(await Promise.all(reads)));
      }
      return records;
    } finally {
      reader.release();
    }
  }

  private parse(line: Buffer, offset: number): ExecutionRecord {
    const op = decodeOp(line);
    if (op?.op !== 'put') throw new Error(`${this.log.file}: no record at offset ${offset}; the index and the file disagree`);
    return op.doc as unknown as ExecutionRecord;
  }

  private replay(line: Buffer, offset: number): boolean {
    const op = decodeOp(line);
    if (op?.op === 'put' && typeof op.doc.executionId === 'string') {
      this.index.set(op.doc as unknown as ExecutionRecord, { offset, length: line.length, token: 0 });
      return true;
    }
    if (op?.op === 'del') {
      this.index.delete(op.id);
      return true;
    }
    if (op?.op === 'clear') {
      this.index.clear();
      return true;
    }
    return false;
  }

  private maybeCompact(): void {
    const log = this.log;
    if (this.compacting || Date.now() < this.retryAfterMs || !worthCompacting(log.lines, this.index.size, log.bytes, this.ctx.compactMinBytes)) return;
    this.compacting = true;
    this.lock
      .run(() => this.compact())
      .catch((error: unknown) => {
        this.retryAfterMs = Date.now() + 60_000;
        this.ctx.logger.warn({ err: error }, 'execution history compaction failed; retrying in a minute');
      })
      .finally(() => {
        this.compacting = false;
      });
  }

  /** Copies each live record's line into a new file, in insertion order; runs under the lock. */
  private async compact(): Promise<void> {
    if (this.ctx.gate.isClosed) return;
    await this.log.compact(async (sink) => {
      const moved: Array<[IndexEntry, number, number]> = [];
      for (const entry of this.index.entries()) {
        const line = entry.pending ? Buffer.from(encodePut(JSON.stringify(entry.pending))) : await sink.read(entry.offset, entry.length);
        moved.push([entry, await sink.write(line), line.length]);
      }
      return () => {
        for (const [entry, offset, length] of moved) {
          entry.offset = offset;
          entry.length = length;
        }
      };
    });
  }
}
