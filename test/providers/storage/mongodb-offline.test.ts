import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import type { Collection } from 'mongodb';
import type { ProviderContext } from '../../../kernel/contracts/provider.js';
import { STORAGE_CONTRACT_VERSION } from '../../../kernel/contracts/storage.js';
import { Gate } from '../../../providers/storage/mongodb/gate.js';
import { mongodbStorage } from '../../../providers/storage/mongodb/index.js';
import { createMongoStorage, openMongoStorage } from '../../../providers/storage/mongodb/mongo-storage.js';
import { KeyedLock } from '../../../providers/storage/mongodb/keyed-lock.js';
import type { Stored } from '../../../providers/storage/mongodb/stored.js';
import { casUpdate } from '../../../providers/storage/mongodb/writes.js';

/** The MongoDB provider's moving parts, exercised without a server. */
const PASSWORD = 'Sup3r-S3cret-pw';
const unreachable = `mongodb://taskloom:${PASSWORD}@127.0.0.1:1/tl`;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function assertUnavailable(error: unknown, ...patterns: RegExp[]): true {
  assert.ok(error instanceof Error);
  assert.equal((error as Error & { code?: string }).code, 'STORAGE_UNAVAILABLE');
  for (const pattern of patterns) assert.match(error.message, pattern);
  assert.ok(!inspect(error, { depth: 10 }).includes(PASSWORD), 'the password is not in the error, its cause or its stack');
  return true;
}

/** One stored document and a hook that lets "another instance" write between a read and a write. */
function fakeCollection(doc: Stored | undefined, beforeWrite: (doc: Stored) => void = () => undefined) {
  const collection = {
    async findOne(filter: { _id: string }) {
      return doc && filter._id === doc._id ? { ...doc } : null;
    },
    async updateOne(filter: { _id: string; _rev: number }, update: { $set: { json: string }; $inc: { _rev: number } }) {
      if (!doc) return { matchedCount: 0 };
      beforeWrite(doc);
      if (filter._id !== doc._id || filter._rev !== doc._rev) return { matchedCount: 0 };
      Object.assign(doc, update.$set, { _rev: (doc._rev ?? 0) + update.$inc._rev });
      return { matchedCount: 1 };
    },
  };
  return collection as unknown as Collection<Stored>;
}

describe('mongodb compare-and-swap update', () => {
  const op = { store: 'tasks', key: 'id', fields: () => ({}) };
  const counter = (n: number): Stored => ({ _id: 'c', json: JSON.stringify({ id: 'c', n }), _rev: 1 });

  it('when another writer gets in between, reads again and applies the change to the newer document', async () => {
    const doc = counter(0);
    let interfered = false;
    const collection = fakeCollection(doc, (current) => {
      if (interfered) return;
      interfered = true;
      Object.assign(current, { json: JSON.stringify({ id: 'c', n: 10 }), _rev: 2 });
    });
    const seen: number[] = [];
    const result = await casUpdate<{ id: string; n: number }>({ ...op, collection, id: 'c', change: (cur) => (seen.push(cur.n), { ...cur, n: cur.n + 1 }) });
    assert.deepEqual(seen, [0, 10]);
    assert.deepEqual(result, { id: 'c', n: 11 });
    assert.deepEqual(JSON.parse(doc.json), { id: 'c', n: 11 });
    assert.equal(doc._rev, 3);
  });

  it('resolves undefined for a missing id without calling change', async () => {
    let calls = 0;
    const result = await casUpdate({ ...op, collection: fakeCollection(undefined), id: 'x', change: (cur) => (calls += 1, cur) });
    assert.equal(result, undefined);
    assert.equal(calls, 0);
  });

  it('writes nothing when change returns undefined, and refuses a changed id or a promise', async () => {
    const doc = counter(5);
    const collection = fakeCollection(doc);
    assert.deepEqual(await casUpdate({ ...op, collection, id: 'c', change: () => undefined }), { id: 'c', n: 5 });
    assert.equal(doc._rev, 1);
    await assert.rejects(casUpdate({ ...op, collection, id: 'c', change: () => ({ id: 'other' }) }), /tasks: update must not change the id \(c\)/);
    await assert.rejects(casUpdate({ ...op, collection, id: 'c', change: () => Promise.resolve({ id: 'c' }) as never }), /change must return the document, not a promise/);
  });
});

describe('mongodb keyed lock', () => {
  it('runs calls for one key one at a time, in order, and other keys alongside', async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    const gate = deferred();
    const first = lock.run('a', async () => (events.push('a1 start'), await gate.promise, events.push('a1 end')));
    const second = lock.run('a', async () => events.push('a2'));
    await lock.run('b', async () => events.push('b'));
    gate.resolve();
    await Promise.all([first, second]);
    assert.deepEqual(events, ['a1 start', 'b', 'a1 end', 'a2']);
  });

  it('a rejected call does not block the next one', async () => {
    const lock = new KeyedLock();
    await assert.rejects(lock.run('a', async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await lock.run('a', async () => 'next'), 'next');
  });
});

describe('mongodb gate', () => {
  it('close() waits for calls already started, then later calls reject', async () => {
    const gate = new Gate('db:27017/tl', []);
    const work = deferred();
    const running = gate.run(() => work.promise);
    let ended = false;
    const closing = gate.close(async () => void (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(ended, false);
    work.resolve();
    await Promise.all([running, closing]);
    assert.equal(ended, true);
    await assert.rejects(gate.run(async () => 1), /the mongodb store at db:27017\/tl is closed/);
  });

  it('turns connection errors into STORAGE_UNAVAILABLE without the password; other errors pass unchanged', () => {
    const gate = new Gate('127.0.0.1:1/tl', [PASSWORD]);
    const selection = Object.assign(new Error(`auth as taskloom:${PASSWORD} failed: connect ECONNREFUSED`), { name: 'MongoServerSelectionError' });
    assertUnavailable(gate.translate(selection), /no connection to MongoDB at 127\.0\.0\.1:1\/tl \(auth as taskloom:\*\*\* failed/);
    assertUnavailable(gate.translate(Object.assign(new Error('Authentication failed.'), { name: 'MongoServerError', code: 18 })), /Authentication failed/);
    const boom = new Error('change failed');
    assert.equal(gate.translate(boom), boom);
  });
});

describe('mongodb storage without a server', () => {
  it('is the provider `mongodb` and needs MONGODB_URL', async () => {
    assert.equal(mongodbStorage.capability, 'storage');
    assert.equal(mongodbStorage.id, 'mongodb');
    assert.equal(mongodbStorage.contractVersion, STORAGE_CONTRACT_VERSION);
    await assert.rejects(mongodbStorage.create({ config: {} } as unknown as ProviderContext<any>), /MONGODB_URL/);
  });

  it('start-up rejects with a clear reason when the server is unreachable, without the password', async () => {
    await assert.rejects(openMongoStorage({ url: unreachable, serverSelectionTimeoutMs: 300 }), (error) =>
      assertUnavailable(error, /no connection to MongoDB at 127\.0\.0\.1:1\/tl/, /check MONGODB_URL and that the server is running/),
    );
  });

  it('check() and calls reject while unreachable; close() is idempotent and later calls reject', async () => {
    const storage = createMongoStorage({ url: unreachable, serverSelectionTimeoutMs: 300, checkTimeoutMs: 2000 });
    assert.equal(storage.kind, 'mongodb');
    await assert.rejects(storage.check(), (error) => assertUnavailable(error, /no connection to MongoDB at 127\.0\.0\.1:1\/tl/));
    await assert.rejects(storage.tasks.list(), (error) => assertUnavailable(error, /no connection to MongoDB/));
    await Promise.all([storage.close(), storage.close()]);
    await storage.close();
    await assert.rejects(storage.claims.claim('k', 'o', 1000), /is closed/);
  });

  it('check() gives up after checkTimeoutMs', async () => {
    const storage = createMongoStorage({ url: unreachable, serverSelectionTimeoutMs: 1000, checkTimeoutMs: 200 });
    try {
      await assert.rejects(storage.check(), (error) => assertUnavailable(error, /did not answer ping within 200 ms/));
    } finally {
      await storage.close();
    }
  });
});
