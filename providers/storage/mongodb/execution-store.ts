import type { Collection } from 'mongodb';
import type { ExecutionRecord, ExecutionStatus, ExecutionSummary } from '../../../kernel/contracts/records.js';
import type { ExecutionMarkFilter, ExecutionQuery, ExecutionStore } from '../../../kernel/contracts/storage.js';
import { collectionOf, type MongoContext } from './context.js';
import { executionFields, executionFind } from './execution-query.js';
import { KeyedLock } from './keyed-lock.js';
import { ownerMatches } from './mark-filter.js';
import { assertKeyed, encode } from '../shared/json-document.js';
import type { Stored } from './stored.js';
import { casUpdate, putStored } from './writes.js';

const NAME = 'executions';
/** Ids per deleteMany when pruning, to keep each command well under the 16 MB limit. */
const DELETE_BATCH = 1000;

/** One document per run: `{ _id: executionId, seq, _rev, json, summary, taskId, status, startedAt }`. */
export class MongoExecutionStore implements ExecutionStore {
  private readonly locks = new KeyedLock();
  private readonly collection: Collection<Stored>;

  constructor(private readonly ctx: MongoContext) {
    this.collection = collectionOf(ctx, NAME);
  }

  insert(record: ExecutionRecord): Promise<ExecutionRecord> {
    return this.ctx.gate.run(async () => {
      assertKeyed(NAME, 'executionId', record);
      const { json, copy } = encode(record);
      // An existing id is replaced, keeping its place in insertion order.
      await this.locks.run(copy.executionId, () => putStored(this.collection, this.ctx.counters, copy.executionId, { json, ...executionFields(copy) }));
      return copy;
    });
  }

  update(executionId: string, change: (current: ExecutionRecord) => ExecutionRecord | undefined): Promise<ExecutionRecord | undefined> {
    return this.ctx.gate.run(() => this.swap(executionId, change));
  }

  get(executionId: string): Promise<ExecutionRecord | undefined> {
    return this.ctx.gate.run(async () => {
      const row = await this.collection.findOne({ _id: executionId }, { projection: { json: 1 } });
      return row ? (JSON.parse(row.json) as ExecutionRecord) : undefined;
    });
  }

  list(query?: ExecutionQuery): Promise<ExecutionRecord[]> {
    return this.ctx.gate.run(() => this.select<ExecutionRecord>('json', query));
  }

  summaries(query?: ExecutionQuery): Promise<ExecutionSummary[]> {
    return this.ctx.gate.run(() => this.select<ExecutionSummary>('summary', query));
  }

  count(query?: Omit<ExecutionQuery, 'limit' | 'offset'>): Promise<number> {
    return this.ctx.gate.run(async () => this.collection.countDocuments(executionFind(query, false).filter));
  }

  delete(executionId: string): Promise<boolean> {
    return this.ctx.gate.run(async () => (await this.collection.deleteOne({ _id: executionId })).deletedCount > 0);
  }

  clear(): Promise<number> {
    return this.ctx.gate.run(async () => (await this.collection.deleteMany({})).deletedCount);
  }

  /**
   * Each matching record changes atomically on its own (compare-and-swap); one that left `from` meanwhile is skipped.
   * The owner is not a stored field: it is checked on the record inside the swap.
   */
  markAll(from: ExecutionStatus[], to: ExecutionStatus, finishedAt: string, filter: ExecutionMarkFilter = {}): Promise<number> {
    return this.ctx.gate.run(async () => {
      const wanted = new Set<string>(from);
      const rows = await this.collection.find({ status: { $in: [...wanted] } }, { projection: { _id: 1 } }).toArray();
      let changed = 0;
      for (const { _id } of rows) {
        let moved = false;
        await this.swap(_id, (current) => {
          moved = wanted.has(current.status) && ownerMatches(current, filter);
          return moved ? { ...current, status: to, finishedAt } : undefined;
        });
        if (moved) changed += 1;
      }
      return changed;
    });
  }

  private swap(executionId: string, change: (current: ExecutionRecord) => ExecutionRecord | undefined): Promise<ExecutionRecord | undefined> {
    return this.locks.run(executionId, () =>
      casUpdate<ExecutionRecord>({ collection: this.collection, store: NAME, key: 'executionId', id: executionId, change, fields: executionFields }),
    );
  }

  /** Ids through the startedAt index, then deletes in batches (the same filter again, so nothing newer goes). */
  deleteStartedBefore(cutoffIso: string): Promise<string[]> {
    return this.ctx.gate.run(async () => {
      const cutoffMs = Date.parse(cutoffIso);
      if (!Number.isFinite(cutoffMs)) throw new TypeError(`executions: cutoff must be an ISO timestamp, got ${JSON.stringify(cutoffIso)}`);
      const older = { startedAt: { $lt: new Date(cutoffMs) } };
      const rows = await this.collection.find(older, { projection: { _id: 1 } }).toArray();
      const ids = rows.map((row) => row._id);
      for (let i = 0; i < ids.length; i += DELETE_BATCH) {
        await this.collection.deleteMany({ _id: { $in: ids.slice(i, i + DELETE_BATCH) }, ...older });
      }
      return ids;
    });
  }

  private async select<R>(field: 'json' | 'summary', query?: ExecutionQuery): Promise<R[]> {
    const { filter, sort, skip, limit } = executionFind(query);
    if (limit === 0) return [];
    let cursor = this.collection.find(filter, { projection: { [field]: 1 } }).sort(sort).skip(skip);
    if (limit !== undefined) cursor = cursor.limit(limit);
    const rows = await cursor.toArray();
    return rows.map((row) => JSON.parse(row[field] as string) as R);
  }
}
