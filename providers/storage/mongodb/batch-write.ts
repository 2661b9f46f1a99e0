import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { Counter } from './sequence.js';
import type { Stored } from './stored.js';

/**
 * Several documents written as one (TaskStore.putAll) without a multi-document transaction, which a standalone
 * server does not have: the documents are first staged beside a marker, then one atomic update of the marker
 * commits them, then they are copied into place. A crash before the commit leaves only staged copies nobody
 * reads; after it, `recoverBatches` (at start-up) finishes the copy. Either way all or none land.
 */

/** The marker: `staged` until the commit point, then `committed` until the copy is done; `abandoned` by recovery. */
export interface BatchMarker {
  _id: string;
  collection: string;
  state: 'staged' | 'committed' | 'abandoned';
  count: number;
  atMs: number;
}

/** One staged document: its place in the batch (`i`), its id and what putStored would `$set`. */
export interface StagedDoc {
  _id: string;
  batch: string;
  i: number;
  id: string;
  set: Record<string, unknown>;
}

export const MARKERS = 'batches';
export const STAGED = 'batch_docs';
/** Staged documents per insertMany / bulkWrite call. */
const CHUNK = 1000;
/** A staged batch this old has no writer left (a crash before its commit): its copies are removed. */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

export interface BatchTarget {
  db: Db;
  counters: Collection<Counter>;
  collection: Collection<Stored>;
}

/** Writes `docs` (id and the fields to set, in order) all or nothing across a crash. */
export async function writeBatch(target: BatchTarget, batchId: string, docs: Array<{ id: string; set: Record<string, unknown> }>): Promise<void> {
  if (docs.length === 0) return;
  const markers = target.db.collection<BatchMarker>(MARKERS);
  const staged = target.db.collection<StagedDoc>(STAGED);
  const name = target.collection.collectionName;
  await markers.insertOne({ _id: batchId, collection: name, state: 'staged', count: docs.length, atMs: Date.now() });
  for (let at = 0; at < docs.length; at += CHUNK) {
    const chunk = docs.slice(at, at + CHUNK).map((doc, k) => ({ _id: `${batchId}:${at + k}`, batch: batchId, i: at + k, id: doc.id, set: doc.set }));
    await staged.insertMany(chunk, { ordered: true });
  }
  // The commit point: one atomic update. It fails when recovery elsewhere took the batch for abandoned.
  const { matchedCount } = await markers.updateOne({ _id: batchId, state: 'staged' }, { $set: { state: 'committed' } });
  if (matchedCount !== 1) throw new Error(`the batch write ${batchId} was abandoned before its commit: nothing of it was written`);
  await applyBatch(target, batchId);
}

/** Copies a committed batch into place (again, after a crash: every step can repeat), then removes it. */
export async function applyBatch(target: BatchTarget, batchId: string): Promise<void> {
  const staged = target.db.collection<StagedDoc>(STAGED);
  const docs = await staged.find({ batch: batchId }).sort({ i: 1 }).toArray();
  const name = target.collection.collectionName;
  for (let at = 0; at < docs.length; at += CHUNK) {
    const chunk = docs.slice(at, at + CHUNK);
    // New documents take their insertion numbers from one block of the counter; replaced ones keep theirs.
    const block = await target.counters.findOneAndUpdate({ _id: name }, { $inc: { value: chunk.length } }, { upsert: true, returnDocument: 'after' });
    if (!block) throw new Error(`the ${name} counter was not returned by MongoDB`);
    const first = block.value - chunk.length + 1;
    const writes: AnyBulkWriteOperation<Stored>[] = chunk.map((doc, k) => ({
      updateOne: { filter: { _id: doc.id }, update: { $set: doc.set, $inc: { _rev: 1 }, $setOnInsert: { seq: first + k } }, upsert: true },
    }));
    await target.collection.bulkWrite(writes, { ordered: true });
  }
  // The copies go first: a marker left without them is finished again with nothing to copy.
  await staged.deleteMany({ batch: batchId });
  await target.db.collection<BatchMarker>(MARKERS).deleteOne({ _id: batchId });
}

/**
 * At start-up: finishes every committed batch of `collection`, and removes staged batches abandoned long ago
 * (marked `abandoned` first, so a writer still alive cannot commit a half-removed batch).
 */
export async function recoverBatches(target: BatchTarget, nowMs = Date.now()): Promise<{ finished: number; dropped: number }> {
  const markers = target.db.collection<BatchMarker>(MARKERS);
  const staged = target.db.collection<StagedDoc>(STAGED);
  const found = await markers.find({ collection: target.collection.collectionName }).toArray();
  let finished = 0;
  let dropped = 0;
  for (const marker of found) {
    if (marker.state === 'committed') {
      await applyBatch(target, marker._id);
      finished++;
    } else if (marker.state === 'abandoned' || nowMs - marker.atMs > ABANDONED_AFTER_MS) {
      const { matchedCount } = await markers.updateOne({ _id: marker._id, state: marker.state }, { $set: { state: 'abandoned' } });
      if (matchedCount === 1) {
        await staged.deleteMany({ batch: marker._id });
        await markers.deleteOne({ _id: marker._id });
        dropped++;
      }
    }
  }
  return { finished, dropped };
}
