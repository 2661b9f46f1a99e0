// The MongoDB all-or-nothing batch write (providers/storage/mongodb/batch-write.ts), without a server (none can be
// installed here): an in-memory stand-in for the few collection calls it makes, which can "crash" after any number
// of them. For every crash point, recovery at the next start leaves none or all of the batch, never a part.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Collection, Db } from 'mongodb';
import { ABANDONED_AFTER_MS, recoverBatches, writeBatch, type BatchTarget } from '../../../providers/storage/mongodb/batch-write.js';
import type { Counter } from '../../../providers/storage/mongodb/sequence.js';
import type { Stored } from '../../../providers/storage/mongodb/stored.js';

type Doc = Record<string, any>;
class Crash extends Error {}

/** Collections as maps; `budget` calls succeed, then every call throws Crash (the process died there). */
function memoryDb() {
  const data = new Map<string, Map<string, Doc>>();
  const state = { budget: Infinity, calls: 0 };
  const table = (name: string): Map<string, Doc> => {
    if (!data.has(name)) data.set(name, new Map());
    return data.get(name)!;
  };
  const matches = (doc: Doc, filter: Doc) => Object.entries(filter).every(([k, v]) => doc[k] === v);
  const first = (rows: Map<string, Doc>, filter: Doc): Doc | undefined => {
    if ('_id' in filter) {
      const doc = rows.get(filter._id);
      return doc && matches(doc, filter) ? doc : undefined;
    }
    return [...rows.values()].find((d) => matches(d, filter));
  };
  const step = () => {
    if (state.calls >= state.budget) throw new Crash('crashed');
    state.calls++;
  };
  const upsert = (rows: Map<string, Doc>, filter: Doc, update: Doc, allowInsert: boolean) => {
    const found = first(rows, filter);
    if (!found && !allowInsert) return 0;
    const doc: Doc = found ?? { _id: filter._id, ...update.$setOnInsert };
    rows.set(doc._id, doc);
    Object.assign(doc, update.$set);
    for (const [k, v] of Object.entries(update.$inc ?? {})) doc[k] = (doc[k] ?? 0) + (v as number);
    return 1;
  };
  const collection = (name: string) => {
    const rows = table(name);
    return {
      collectionName: name,
      insertOne: async (doc: Doc) => { step(); if (rows.has(doc._id)) throw new Error('duplicate'); rows.set(doc._id, structuredClone(doc)); },
      insertMany: async (docs: Doc[]) => { step(); for (const doc of docs) rows.set(doc._id, structuredClone(doc)); },
      updateOne: async (filter: Doc, update: Doc, options?: { upsert?: boolean }) => { step(); return { matchedCount: upsert(rows, filter, update, options?.upsert === true) }; },
      findOneAndUpdate: async (filter: Doc, update: Doc) => { step(); upsert(rows, filter, update, true); return structuredClone(rows.get(filter._id)); },
      bulkWrite: async (ops: Array<{ updateOne: { filter: Doc; update: Doc } }>) => { step(); for (const op of ops) upsert(rows, op.updateOne.filter, op.updateOne.update, true); },
      deleteOne: async (filter: Doc) => { step(); const doc = first(rows, filter); if (doc) rows.delete(doc._id); return { deletedCount: doc ? 1 : 0 }; },
      deleteMany: async (filter: Doc) => { step(); for (const doc of [...rows.values()]) if (matches(doc, filter)) rows.delete(doc._id); },
      find: (filter: Doc) => {
        let order: Doc | undefined;
        const cursor = {
          sort: (by: Doc) => ((order = by), cursor),
          toArray: async () => {
            step();
            const found = [...rows.values()].filter((d) => matches(d, filter)).map((d) => structuredClone(d));
            const key = order && Object.keys(order)[0];
            return key ? found.sort((a, b) => a[key] - b[key]) : found;
          },
        };
        return cursor;
      },
    };
  };
  const db = { collection } as unknown as Db;
  const target: BatchTarget = {
    db, counters: collection('counters') as unknown as Collection<Counter>, collection: collection('tasks') as unknown as Collection<Stored>,
  };
  return { state, target, tasks: table('tasks'), markers: table('batches'), staged: table('batch_docs') };
}

const docsOf = (names: string[]) => names.map((id) => ({ id, set: { json: JSON.stringify({ id, name: `task ${id}` }) } }));

describe('mongodb batch write across a crash', () => {
  it('for every crash point: recovery leaves none or all of the batch, replaced documents keep their place', async () => {
    const ids = Array.from({ length: 2500 }, (_, i) => `t${i}`); // three chunks of staged documents
    let total = 0;
    const outcomes = { none: 0, all: 0 };
    for (let budget = 0; ; budget++) {
      const { state, target, tasks, markers, staged } = memoryDb();
      tasks.set('t0', { _id: 't0', json: '{"id":"t0","name":"before"}', seq: 1, _rev: 1 });
      state.budget = budget;
      const crashed = await writeBatch(target, 'b1', docsOf(ids)).then(() => false, (error) => {
        assert.ok(error instanceof Crash, String(error));
        return true;
      });
      if (!crashed) {
        total = budget;
        break;
      }
      state.budget = Infinity; // the next start
      await recoverBatches(target, Date.now() + ABANDONED_AFTER_MS + 1);
      const written = ids.filter((id) => tasks.get(id) && JSON.parse(tasks.get(id)!.json).name === `task ${id}`).length;
      assert.ok(written === 0 || written === ids.length, `crash after ${budget} calls: ${written} of ${ids.length} written`);
      outcomes[written === 0 ? 'none' : 'all']++;
      if (written === 0) assert.equal(JSON.parse(tasks.get('t0')!.json).name, 'before');
      assert.equal(tasks.get('t0')!.seq, 1, 'a replaced document keeps its insertion number');
      assert.deepEqual([markers.size, staged.size], [0, 0], 'nothing of the batch is left behind');
    }
    assert.ok(total > 5 && outcomes.none > 0 && outcomes.all > 0, `crash points tried: ${total} (${JSON.stringify(outcomes)})`);
  });

  it('a young staged batch is left to its writer, an old one is removed', async () => {
    const { target, markers } = memoryDb();
    await (target.db.collection('batches') as unknown as { insertOne(doc: Doc): Promise<void> }).insertOne({ _id: 'young', collection: 'tasks', state: 'staged', count: 1, atMs: Date.now() });
    assert.deepEqual(await recoverBatches(target), { finished: 0, dropped: 0 });
    assert.equal(markers.size, 1);
    assert.deepEqual(await recoverBatches(target, Date.now() + ABANDONED_AFTER_MS + 1), { finished: 0, dropped: 1 });
  });
});
