// The PostgreSQL pool against a peer that stops answering (sockets open, no bytes): every call ends at the time
// limit with STORAGE_UNAVAILABLE, the connections that went silent are destroyed rather than reused, and the
// pool serves at once when the peer answers again. The time limits reach the server, and DATABASE_URL can change them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { openPostgresStorage } from '../../../providers/storage/postgres/postgres-storage.js';
import { makeTask } from '../../../testing/storage/harness.js';
import { postgresUnavailable } from '../../support/postgres-database.js';
import { createTcpProxy } from '../../support/tcp-proxy.js';

const skip = await postgresUnavailable();
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 2 });
after(() => admin.end());

function through(port: number, query = ''): string {
  const target = new URL(url);
  target.host = `127.0.0.1:${port}`;
  return target.toString() + query;
}

const unavailable = (error: unknown) => (error as { code?: string }).code === 'STORAGE_UNAVAILABLE';

describe('postgres pool time limits', { skip }, () => {
  it('a silent peer: calls fail at the time limit, silent connections are dropped, and the pool serves at once when it answers', async () => {
    const target = new URL(url);
    const proxy = createTcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.up();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const storage = await openPostgresStorage({ url: through(proxy.port), schema, poolSize: 3, queryTimeoutMs: 800, connectTimeoutMs: 800, checkTimeoutMs: 500 });
    try {
      const task = makeTask();
      await storage.tasks.put(task);
      // Three open connections in the pool, then the peer goes silent on all of them.
      await Promise.all([1, 2, 3].map(() => storage.db.query('SELECT pg_sleep(0.05)')));
      for (let episode = 1; episode <= 3; episode++) {
        proxy.blackhole();
        const started = Date.now();
        const calls = await Promise.allSettled([storage.tasks.get(task.id), storage.tasks.list(), storage.tasks.count(), storage.tasks.update(task.id, (t) => t)]);
        const took = Date.now() - started;
        assert.ok(calls.every((c) => c.status === 'rejected' && unavailable(c.reason)), `episode ${episode}: every call is STORAGE_UNAVAILABLE`);
        assert.ok(took < 10_000, `episode ${episode}: the calls ended at their time limit, not never (${took} ms)`);
        await assert.rejects(storage.check(), unavailable);
        await proxy.up();
        // No call waits on a connection that went silent: the first call after the peer answers succeeds.
        assert.deepEqual(await storage.tasks.get(task.id), task, `episode ${episode}: served at once`);
        await storage.check();
      }
    } finally {
      await storage.close();
      await proxy.down();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  });

  it('sets statement_timeout and idle_in_transaction_session_timeout on the server; DATABASE_URL parameters win', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const show = async (query: string) => {
      const storage = await openPostgresStorage({ url: url + query, schema });
      try {
        const { rows } = await storage.db.query<{ statement: string; idle: string }>(
          "SELECT current_setting('statement_timeout') AS statement, current_setting('idle_in_transaction_session_timeout') AS idle");
        return rows[0];
      } finally {
        await storage.close();
      }
    };
    try {
      assert.deepEqual(await show(''), { statement: '10s', idle: '30s' });
      assert.deepEqual(await show('?statement_timeout=60000'), { statement: '1min', idle: '30s' });
      const storage = await openPostgresStorage({ url, schema, statementTimeoutMs: 300 });
      try {
        await assert.rejects(storage.db.query('SELECT pg_sleep(2)'), (error: Error) => unavailable(error) && /cancelled a statement at its time limit/.test(error.message));
        assert.equal((await storage.db.query('SELECT 1 AS one')).rows[0].one, 1, 'the connection is still usable after a server-side cancel');
      } finally {
        await storage.close();
      }
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  });
});
