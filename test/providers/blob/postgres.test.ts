import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../../kernel/config.js';
import { createLogger } from '../../../kernel/logger.js';
import { checkConfig } from '../../../kernel/module-config.js';
import { Registry } from '../../../kernel/registry.js';
import { builtIns } from '../../../app/built-ins.js';
import { postgresBlobStore } from '../../../providers/blob/postgres/index.js';
import { openPostgresBlobStore } from '../../../providers/blob/postgres/postgres-blob-store.js';
import { blobContract } from '../../../testing/blob.contract.js';
import { createTestDatabase } from '../../support/postgres-database.js';

const logger = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));

/** Every test gets a database of its own, dropped afterwards. */
blobContract('postgres', async () => {
  const db = await createTestDatabase('taskloom_blob');
  const open = () => openPostgresBlobStore({ url: db.url(), logger });
  const store = await open();
  return {
    store,
    openSecond: open,
    async cleanup() {
      await store.close();
      await db.drop();
    },
  };
});

describe('blob store: postgres', () => {
  it('keeps blobs in chunk rows of DATABASE_URL\'s database, and removes the chunks with the blob', async () => {
    const db = await createTestDatabase('taskloom_blob');
    const client = new pg.Client({ connectionString: db.url() });
    try {
      const config = loadConfig({ BLOB_STORE: 'postgres', DATABASE_URL: db.url(), LOG_LEVEL: 'silent' });
      const store = await postgresBlobStore.create({
        config: { DATABASE_URL: db.url() }, logger, dataDir: config.dataDir, signal: new AbortController().signal, outbound: undefined as never,
      });
      await client.connect();
      await store.put('exec_1_1.webm', Buffer.alloc(600 * 1024, 7), { contentType: 'video/webm' });
      const chunks = await client.query('SELECT count(*)::int AS n, max(length(data)) AS biggest FROM taskloom_blob_chunks');
      assert.deepEqual(chunks.rows[0], { n: 3, biggest: 256 * 1024 });
      assert.equal(await store.delete('exec_1_1.webm'), true);
      assert.equal((await client.query('SELECT count(*)::int AS n FROM taskloom_blob_chunks')).rows[0].n, 0);
      await store.close();
    } finally {
      await client.end().catch(() => undefined);
      await db.drop();
    }
  });

  it('is chosen with BLOB_STORE=postgres, which requires DATABASE_URL and never repeats its value', () => {
    const registry = new Registry();
    registry.addModule(builtIns);
    assert.throws(() => checkConfig(loadConfig({ BLOB_STORE: 'postgres' }), registry), /DATABASE_URL is required when BLOB_STORE=postgres/);
    const secret = 'mysql://user:hunter2-secret@db/x';
    assert.throws(() => checkConfig(loadConfig({ BLOB_STORE: 'postgres', DATABASE_URL: secret }), registry), (error: Error) => {
      assert.match(error.message, /DATABASE_URL/);
      assert.ok(!error.message.includes('hunter2'), error.message);
      return true;
    });
    assert.throws(() => checkConfig(loadConfig({ BLOB_STORE: 'nope' }), registry), /BLOB_STORE is "nope"; expected one of disk, postgres/);
  });
});
