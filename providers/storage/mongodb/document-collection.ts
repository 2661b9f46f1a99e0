import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import type { DocumentStore } from '../../../kernel/contracts/storage.js';
import { assertKeyed, encode } from '../shared/json-document.js';
import { recoverBatches, writeBatch } from './batch-write.js';
import { collectionOf, type MongoContext } from './context.js';
import { KeyedLock } from './keyed-lock.js';
import type { Stored } from './stored.js';
import { casUpdate, putStored } from './writes.js';

/**
 * One collection of documents keyed by `id` (stored as `_id`). `update` is a compare-and-swap on
 * `_rev` (see writes.ts); calls for one id are also queued within this instance.
 */
export class MongoDocuments<T extends { id: string }> implements DocumentStore<T> {
  protected readonly locks = new KeyedLock();
  protected readonly collection: Collection<Stored>;

  constructor(
    protected readonly ctx: MongoContext,
    readonly name: string,
    private readonly fieldsOf: (doc: T) => Record<string, unknown> = () => ({}),
  ) {
    this.collection = collectionOf(ctx, name);
  }

  get(id: string): Promise<T | undefined> {
    return this.ctx.gate.run(async () => {
      const row = await this.collection.findOne({ _id: id }, { projection: { json: 1 } });
      return row ? (JSON.parse(row.json) as T) : undefined;
    });
  }

  list(): Promise<T[]> {
    return this.ctx.gate.run(async () => {
      const rows = await this.collection.find({}, { projection: { json: 1 } }).sort({ seq: 1 }).toArray();
      return rows.map((row) => JSON.parse(row.json) as T);
    });
  }

  put(doc: T): Promise<T> {
    return this.ctx.gate.run(async () => {
      assertKeyed(this.name, 'id', doc);
      const { json, copy } = encode(doc);
      await this.locks.run(copy.id, () => this.write(copy, json));
      return copy;
    });
  }

  /** Every document, all or none across a crash: staged, committed by one marker update, then copied (batch-write.ts). */
  putAll(docs: T[]): Promise<void> {
    return this.ctx.gate.run(async () => {
      const latest = new Map<string, T>();
      for (const doc of docs) {
        assertKeyed(this.name, 'id', doc);
        latest.set(doc.id, doc);
      }
      const staged = [...latest.values()].map((doc) => {
        const { json, copy } = encode(doc);
        return { id: copy.id, set: { json, ...this.fieldsOf(copy) } };
      });
      await writeBatch(this.batchTarget(), `${this.name}-${randomUUID()}`, staged);
    });
  }

  /** At start-up: finishes batch writes a crash cut after their commit point. */
  recoverBatches(): Promise<{ finished: number; dropped: number }> {
    return this.ctx.gate.run(() => recoverBatches(this.batchTarget()));
  }

  update(id: string, change: (current: T) => T | undefined): Promise<T | undefined> {
    return this.ctx.gate.run(() =>
      this.locks.run(id, () => casUpdate<T>({ collection: this.collection, store: this.name, key: 'id', id, change, fields: this.fieldsOf })),
    );
  }

  delete(id: string): Promise<boolean> {
    return this.ctx.gate.run(async () => (await this.collection.deleteOne({ _id: id })).deletedCount > 0);
  }

  count(): Promise<number> {
    return this.ctx.gate.run(() => this.collection.countDocuments({}));
  }

  private batchTarget() {
    return { db: this.ctx.db, counters: this.ctx.counters, collection: this.collection };
  }

  /** Inserts or replaces without the gate or the lock: for callers that hold them. */
  protected write(doc: T, json: string): Promise<void> {
    return putStored(this.collection, this.ctx.counters, doc.id, { json, ...this.fieldsOf(doc) });
  }
}
