import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { ProviderContext } from '../../../kernel/contracts/provider.js';
import { STORAGE_CONTRACT_VERSION } from '../../../kernel/contracts/storage.js';
import { postgresStorage } from '../../../providers/storage/postgres/index.js';
import { openPostgresStorage, type PostgresStorage } from '../../../providers/storage/postgres/postgres-storage.js';
import { storageContract, type StorageHarness } from '../../../testing/storage.contract.js';
import { makeExecution, makeTask } from '../../../testing/storage/harness.js';

/** The PostgreSQL the tests use; every test works in a fresh schema of its own, dropped afterwards. */
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 2 });
const freshSchema = (): string => `t_${randomBytes(6).toString('hex')}`;
const dropSchema = (schema: string) => admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);

before(async () => {
  await admin.query('SELECT 1').catch((error: Error) => {
    throw new Error(`PostgreSQL is not reachable for the tests (${error.message}): start it with pg_ctlcluster, or set TEST_DATABASE_URL`);
  });
});
after(() => admin.end());

async function createPgHarness(): Promise<StorageHarness> {
  const schema = freshSchema();
  const open = () => openPostgresStorage({ url, schema, poolSize: 10 });
  let storage: PostgresStorage = await open();
  return {
    get storage() {
      return storage;
    },
    async reopen() {
      await storage.close();
      storage = await open();
      return storage;
    },
    async cleanup() {
      await storage.close();
      await dropSchema(schema);
    },
  };
}

storageContract('postgres', createPgHarness);

describe('postgres storage', () => {
  it('is the provider `postgres` and uses DATABASE_URL from the config', async () => {
    assert.equal(postgresStorage.capability, 'storage');
    assert.equal(postgresStorage.id, 'postgres');
    assert.equal(postgresStorage.contractVersion, STORAGE_CONTRACT_VERSION);
    const schema = freshSchema();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const ctx = {
      config: { DATABASE_URL: `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}` },
      logger: { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => ctx.logger },
      dataDir: '/nonexistent',
      signal: new AbortController().signal,
    } as unknown as ProviderContext<any>;
    const storage = await postgresStorage.create(ctx);
    try {
      assert.equal(storage.kind, 'postgres');
      const task = makeTask();
      await storage.tasks.put(task);
      const { rows } = await admin.query(`SELECT id FROM ${schema}.tasks`);
      assert.deepEqual(rows, [{ id: task.id }]);
    } finally {
      await storage.close();
      await dropSchema(schema);
    }
  });

  it('refuses to create without DATABASE_URL, naming the variable', async () => {
    const ctx = { config: {}, logger: {} } as unknown as ProviderContext<any>;
    await assert.rejects(postgresStorage.create(ctx), /DATABASE_URL/);
  });

  it('keeps documents exactly: key order, "\\u0000", unicode, big and tiny numbers', async () => {
    const h = await createPgHarness();
    try {
      const odd = { z: 1, a: 'nul \u0000 char', 'k.e.y': { $dollar: true }, emoji: '𝄞 ü', big: 1.7976931348623157e308, tiny: 5e-324, n: 0.1 + 0.2 };
      const task = makeTask({ extra: odd });
      const run = makeExecution({ result: { data: odd } });
      await h.storage.tasks.put(task);
      await h.storage.executions.insert(run);
      await h.storage.settings.set('odd', odd);
      const reopened = await h.reopen();
      assert.equal(JSON.stringify(await reopened.tasks.get(task.id)), JSON.stringify(task));
      assert.equal(JSON.stringify(await reopened.executions.get(run.executionId)), JSON.stringify(run));
      assert.equal(JSON.stringify(await reopened.settings.get('odd')), JSON.stringify(odd));
    } finally {
      await h.cleanup();
    }
  });

  it('keeps emails unique ignoring case (put and update), lower-casing like JavaScript', async () => {
    const h = await createPgHarness();
    try {
      const first = { id: 'u1', name: 'A', email: 'Ada@Example.com', passwordHash: 'x', createdAt: '2024-01-01T00:00:00.000Z' };
      await h.storage.users.put(first);
      await assert.rejects(h.storage.users.put({ ...first, id: 'u2', email: 'ada@example.COM' }), /already has the email/);
      await h.storage.users.put({ ...first, name: 'same user, same email' });
      await h.storage.users.put({ ...first, id: 'u3', email: 'grace@example.com' });
      await assert.rejects(h.storage.users.update('u3', (cur) => ({ ...cur, email: 'ADA@example.com' })), /already has the email ADA@example\.com/);
      assert.equal(await h.storage.users.count(), 2);
      // Lower-cased by JavaScript, as in the other stores, whatever the database's locale.
      await h.storage.users.put({ ...first, id: 'u4', email: 'ÜNAL@Example.com' });
      assert.equal((await h.storage.users.findByEmail('ünal@example.COM'))?.id, 'u4');
    } finally {
      await h.cleanup();
    }
  });
});
