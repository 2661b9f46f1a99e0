import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { JobQueue } from '../../../kernel/contracts/queue.js';
import { CONTRACT_VERSIONS } from '../../../kernel/contracts/provider.js';
import { pgBossQueue } from '../../../providers/queue/pg-boss/index.js';
import { createPgBossQueue } from '../../../providers/queue/pg-boss/pg-boss-queue.js';
import { queueContract } from '../../../testing/queue.contract.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../../support/postgres-database.js';
import { createTcpProxy } from '../../support/tcp-proxy.js';
import { silentLogger } from './silent-logger.js';

const unavailable = await postgresUnavailable();
if (unavailable) {
  describe('pg-boss queue', () => { it('needs PostgreSQL', (t) => { t.skip(unavailable); }); });
} else {
  // One fresh database for the file; each contract case uses its own queue names in it.
  const db = await createTestDatabase('taskloom_queue');
  const opened: JobQueue[] = [];
  after(async () => {
    await Promise.all(opened.map((q) => q.stop()));
    await db.drop();
  });
  const open = async () => {
    const queue = await createPgBossQueue({ url: db.url(), logger: silentLogger });
    opened.push(queue);
    return queue;
  };

  queueContract('pg-boss', async () => ({
    open,
    child: { module: path.resolve('providers/queue/pg-boss/index.ts'), exportName: 'pgBossQueue', config: { DATABASE_URL: db.url() } },
    close: async () => {},
  }));

  describe('pg-boss queue', () => {
    let queue: JobQueue;
    before(async () => { queue = await open(); });

    it('is the provider `pg-boss` of the queue capability, durable', () => {
      assert.equal(pgBossQueue.capability, 'queue');
      assert.equal(pgBossQueue.contractVersion, CONTRACT_VERSIONS.queue);
      assert.equal(queue.capabilities.durable, true);
    });

    it('keeps its tables in the schema pgboss of the service database', async () => {
      await queue.enqueue('schema_check', { v: 1 });
      const client = new pg.Client({ connectionString: db.url() });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'schema_check'");
        assert.equal(rows[0].n, 1);
      } finally {
        await client.end();
      }
    });

    it('rejects an enqueue at once while the database is away, and enqueues again once it is back', async () => {
      const target = new URL(db.url());
      const proxy = createTcpProxy(target.hostname, Number(target.port || 5432));
      await proxy.up();
      const queue = await createPgBossQueue({ url: db.url(proxy.port), logger: silentLogger });
      opened.push(queue);
      assert.equal(typeof await queue.enqueue('outage', { n: 1 }), 'string');
      await proxy.down();
      const started = Date.now();
      await assert.rejects(queue.enqueue('outage', { n: 2 }));
      assert.ok(Date.now() - started < 3_000, `rejected after ${Date.now() - started} ms`);
      await proxy.up();
      let back: string | null = null;
      for (let i = 0; i < 100 && back === null; i += 1) {
        back = await queue.enqueue('outage', { n: 3 }).catch(() => null);
        if (back === null) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(typeof back, 'string', 'enqueued again once the database was back');
      await queue.stop();
      await proxy.down();
    });

    it('starts with a database it cannot reach rejected, naming no password', async () => {
      const url = new URL(db.url());
      url.port = '1';
      url.password = 'hunter2-secret';
      await assert.rejects(createPgBossQueue({ url: url.toString(), logger: silentLogger }), (error: Error) => {
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      });
    });
  });
}
