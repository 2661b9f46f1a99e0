import type { Collection } from 'mongodb';
import type { SettingsStore } from '../../../kernel/contracts/storage.js';
import { collectionOf, type MongoContext } from './context.js';
import { KeyedLock } from './keyed-lock.js';
import { isDuplicateKey, type Stored } from './stored.js';
import { pause } from './writes.js';

function encodeValue(key: string, value: unknown): string {
  if (typeof (value as { then?: unknown } | null)?.then === 'function') throw new TypeError('settings: change must return the value, not a promise');
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError(`settings: the value of ${key} must be a JSON value, got ${typeof value}`);
  return json;
}

/** `{ _id: key, json, _rev }`. update is a compare-and-swap on `_rev`, or an insert that loses to a concurrent one on the duplicate key. */
export class MongoSettingsStore implements SettingsStore {
  private readonly locks = new KeyedLock();
  private readonly collection: Collection<Stored>;

  constructor(private readonly ctx: MongoContext) {
    this.collection = collectionOf(ctx, 'settings');
  }

  get<V = unknown>(key: string): Promise<V | undefined> {
    return this.ctx.gate.run(async () => {
      const row = await this.collection.findOne({ _id: key }, { projection: { json: 1 } });
      return row ? (JSON.parse(row.json) as V) : undefined;
    });
  }

  set<V>(key: string, value: V): Promise<void> {
    return this.ctx.gate.run(async () => {
      const json = encodeValue(key, value);
      await this.locks.run(key, () => this.collection.updateOne({ _id: key }, { $set: { json }, $inc: { _rev: 1 } }, { upsert: true }));
    });
  }

  update<V>(key: string, change: (current: V | undefined) => V): Promise<V> {
    return this.ctx.gate.run(() => this.locks.run(key, () => this.swap(key, change)));
  }

  delete(key: string): Promise<boolean> {
    return this.ctx.gate.run(async () => (await this.collection.deleteOne({ _id: key })).deletedCount > 0);
  }

  keys(): Promise<string[]> {
    return this.ctx.gate.run(async () => (await this.collection.find({}, { projection: { _id: 1 } }).toArray()).map((row) => String(row._id)));
  }

  private async swap<V>(key: string, change: (current: V | undefined) => V): Promise<V> {
    for (let attempt = 0; ; attempt += 1) {
      const row = await this.collection.findOne({ _id: key }, { projection: { json: 1, _rev: 1 } });
      const json = encodeValue(key, change(row ? (JSON.parse(row.json) as V) : undefined));
      if (row) {
        const { matchedCount } = await this.collection.updateOne({ _id: key, _rev: row._rev ?? { $exists: false } }, { $set: { json }, $inc: { _rev: 1 } });
        if (matchedCount === 1) return JSON.parse(json) as V;
      } else {
        try {
          await this.collection.insertOne({ _id: key, json, _rev: 1 });
          return JSON.parse(json) as V;
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
      }
      await pause(attempt);
    }
  }
}
