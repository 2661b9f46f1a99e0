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
import { blobContract } from '../../contracts/blob.contract.js';

/**
 * The blob contract against a real MongoDB's GridFS. No MongoDB server can be installed on the build machine
 * (and the wire stand-in of test/providers/storage keeps no documents), so this runs only when MONGODB_URL is set.
 */
const url = process.env.MONGODB_URL;
const logger = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));

if (url === undefined || url === '') {
  const reason = 'MONGODB_URL is not set: no MongoDB server on this machine; the GridFS blob contract suite did not run';
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
