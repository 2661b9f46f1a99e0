import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { MongoClient } from 'mongodb';
import { loadConfig } from '../../../kernel/config.js';
import { createLogger } from '../../../kernel/logger.js';
import { checkConfig } from '../../../kernel/module-config.js';
import { Registry } from '../../../kernel/registry.js';
import { builtIns } from '../../../app/built-ins.js';
import { openGridfsBlobStore } from '../../../providers/blob/gridfs/gridfs-blob-store.js';
import { blobContract } from '../../../testing/blob.contract.js';
import { startMongoDocumentsStandIn } from '../../stand-ins/mongo-documents.js';

/**
 * The blob contract against the real driver's GridFS on a local stand-in of the MongoDB wire protocol that keeps
 * documents in memory; and against a real MongoDB, which no build machine has, when MONGODB_URL is set.
 */
const url = process.env.MONGODB_URL;
const logger = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));

blobContract('gridfs (a local stand-in of the MongoDB wire protocol)', async () => {
  const standIn = await startMongoDocumentsStandIn();
  const open = () => openGridfsBlobStore({ url: standIn.url, logger });
  const store = await open();
  return {
    store,
    openSecond: open,
    async cleanup() {
      await store.close();
      await standIn.close();
    },
  };
});

if (url === undefined || url === '') {
  const reason = 'MONGODB_URL is not set: no MongoDB server on this machine; the GridFS blob contract suite ran against the wire stand-in only';
  describe('blob contract: gridfs', () => {
    it('runs the blob contract suite against MONGODB_URL', { skip: reason }, () => undefined);
  });
} else {
  const admin = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  after(() => admin.close());

  /** Every test gets its own database, dropped afterwards. */
  blobContract('gridfs', async () => {
    const dbName = `t_blob_${randomBytes(6).toString('hex')}`;
    const open = () => openGridfsBlobStore({ url, dbName, logger });
    const store = await open();
    return {
      store,
      openSecond: open,
      async cleanup() {
        await store.close();
        await admin.db(dbName).dropDatabase();
      },
    };
  });
}

describe('blob store: gridfs', () => {
  it('keeps a blob as a GridFS file of the bucket taskloom_blobs, and a replaced one is removed with its chunks', async () => {
    const standIn = await startMongoDocumentsStandIn('captures_db');
    const store = await openGridfsBlobStore({ url: standIn.url, logger });
    try {
      await store.put('exec_1_1.webm', Buffer.alloc(600 * 1024, 1), { contentType: 'video/webm' });
      await store.put('exec_1_1.webm', Buffer.alloc(300 * 1024, 2), { contentType: 'video/webm' });
      const files = standIn.collections.get('captures_db.taskloom_blobs.files')!;
      const chunks = standIn.collections.get('captures_db.taskloom_blobs.chunks')!;
      assert.deepEqual(files.map((f) => [f.filename, f.length, (f.metadata as { contentType: string }).contentType]), [['exec_1_1.webm', 300 * 1024, 'video/webm']]);
      assert.equal(chunks.length, 2, 'the replaced file\'s chunks are gone');
      assert.ok(chunks.every((c) => String(c.files_id) === String(files[0]!._id)));
      assert.equal(await store.delete('exec_1_1.webm'), true);
      assert.deepEqual([standIn.collections.get('captures_db.taskloom_blobs.files'), standIn.collections.get('captures_db.taskloom_blobs.chunks')], [[], []]);
    } finally {
      await store.close();
      await standIn.close();
    }
  });

  it('is chosen with BLOB_STORE=gridfs, which requires MONGODB_URL and never repeats its value', () => {
    const registry = new Registry();
    registry.addModule(builtIns);
    assert.throws(() => checkConfig(loadConfig({ BLOB_STORE: 'gridfs' }), registry), /MONGODB_URL is required when BLOB_STORE=gridfs/);
    assert.throws(() => checkConfig(loadConfig({ BLOB_STORE: 'gridfs', MONGODB_URL: 'http://u:hunter2@x' }), registry), (error: Error) => {
      assert.match(error.message, /MONGODB_URL/);
      assert.ok(!error.message.includes('hunter2'), error.message);
      return true;
    });
  });

  it('says it cannot reach MongoDB, without the password', async () => {
    const unreachable = 'mongodb://user:hunter2-secret@127.0.0.1:1/taskloom?serverSelectionTimeoutMS=300';
    await assert.rejects(openGridfsBlobStore({ url: unreachable, logger }), (error: Error) => {
      assert.match(error.message, /cannot reach MongoDB/);
      assert.ok(!error.message.includes('hunter2'), error.message);
      return true;
    });
  });
});
