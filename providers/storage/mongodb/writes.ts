import type { Collection } from 'mongodb';
import { checkChanged, encode } from '../shared/json-document.js';
import { nextSeq, type Counter } from './sequence.js';
import type { Stored } from './stored.js';

export interface CasUpdate<T> {
  collection: Collection<Stored>;
  /** For error messages: `tasks`, `executions`, ... */
  store: string;
  /** The id field of the document: `id` or `executionId`. */
  key: string;
  id: string;
  change(current: T): T | undefined;
  /** Queryable fields kept beside the JSON. */
  fields(doc: T): Record<string, unknown>;
}

/** A short random wait after losing a compare-and-swap, growing with the attempts (at most 50 ms). */
export const pause = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));

/**
 * Read, change, write only if `_rev` is still what was read; otherwise another writer got there
 * first, so read again and call `change` on the newer document. No transaction is needed: the
 * conditional updateOne is atomic on one document.
 */
export async function casUpdate<T>(op: CasUpdate<T>): Promise<T | undefined> {
  for (let attempt = 0; ; attempt += 1) {
    const row = await op.collection.findOne({ _id: op.id }, { projection: { json: 1, _rev: 1 } });
    if (!row) return undefined;
    const next = checkChanged(op.store, op.key, op.id, op.change(JSON.parse(row.json) as T));
    if (next === undefined) return JSON.parse(row.json) as T;
    const { json, copy } = encode(next);
    const { matchedCount } = await op.collection.updateOne(
      { _id: op.id, _rev: row._rev ?? { $exists: false } },
      { $set: { json, ...op.fields(copy) }, $inc: { _rev: 1 } },
    );
    if (matchedCount === 1) return copy;
    await pause(attempt);
  }
}

/**
 * Inserts or replaces one stored document. A replacement keeps its `seq` (its place in insertion
 * order); only a new document draws a number from the counter.
 */
export async function putStored(
  collection: Collection<Stored>,
  counters: Collection<Counter>,
  id: string,
  set: Record<string, unknown>,
): Promise<void> {
  const replaced = await collection.updateOne({ _id: id }, { $set: set, $inc: { _rev: 1 } });
  if (replaced.matchedCount === 1) return;
  const seq = await nextSeq(counters, collection.collectionName);
  // Two instances inserting the same new id: the server turns the second upsert into an update.
  await collection.updateOne({ _id: id }, { $set: set, $inc: { _rev: 1 }, $setOnInsert: { seq } }, { upsert: true });
}
