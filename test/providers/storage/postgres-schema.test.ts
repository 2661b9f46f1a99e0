import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { MIGRATIONS_TABLE } from '../../../providers/storage/postgres/migrate.js';
import { openPostgresStorage } from '../../../providers/storage/postgres/postgres-storage.js';
import { migrations } from '../../../providers/storage/postgres/schema-migrations.js';
import { makeExecution, makeTask } from '../../../testing/storage/harness.js';
import { recordingLogger } from './json-harness.js';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 2 });
after(() => admin.end());

/** Runs `body` with a fresh schema name, dropping the schema afterwards. */
async function inFreshSchema(body: (schema: string) => Promise<void>): Promise<void> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  try {
    await body(schema);
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
}

async function recorded(schema: string): Promise<Array<{ version: number; times: number }>> {
  const { rows } = await admin.query(`SELECT version, count(*)::integer AS times FROM ${schema}.${MIGRATIONS_TABLE} GROUP BY version ORDER BY version`);
  return rows;
}

const everyVersionOnce = () => migrations.map((m) => ({ version: m.version, times: 1 }));

describe('postgres schema migrations', () => {
  it('apply each numbered step once: a second start applies nothing and keeps the data', async () => {
    await inFreshSchema(async (schema) => {
      const logger = recordingLogger();
      const first = await openPostgresStorage({ url, schema, logger });
      const task = makeTask();
      await first.tasks.put(task);
      await first.close();
      const applied = logger.entries.filter((e) => e.msg === 'applied a PostgreSQL migration').length;
      assert.equal(applied, migrations.length);

      const second = await openPostgresStorage({ url, schema, logger });
      try {
        assert.equal(logger.entries.filter((e) => e.msg === 'applied a PostgreSQL migration').length, applied, 'the second start applied nothing');
        assert.deepEqual(await recorded(schema), everyVersionOnce());
        assert.deepEqual(await second.tasks.list(), [task]);
      } finally {
        await second.close();
      }
    });
  });

  it('lets instances that start together on one schema all succeed (advisory lock), recording each step once', async () => {
    await inFreshSchema(async (schema) => {
      const opened = await Promise.all(Array.from({ length: 5 }, () => openPostgresStorage({ url, schema, poolSize: 2 })));
      try {
        assert.deepEqual(await recorded(schema), everyVersionOnce());
        const task = makeTask();
        await opened[0].tasks.put(task);
        for (const storage of opened) assert.deepEqual(await storage.tasks.get(task.id), task);
      } finally {
        await Promise.all(opened.map((storage) => storage.close()));
      }
    });
  });

  it('refuses a schema migrated by a newer taskloom, saying what to do', async () => {
    await inFreshSchema(async (schema) => {
      await (await openPostgresStorage({ url, schema })).close();
      await admin.query(`INSERT INTO ${schema}.${MIGRATIONS_TABLE} (version, name) VALUES (999, 'from the future')`);
      await assert.rejects(openPostgresStorage({ url, schema }), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'STORAGE_UNAVAILABLE');
        assert.match(error.message, /migration 999, newer than this taskloom knows .*upgrade taskloom/);
        return true;
      });
    });
  });

  it('has an index for every query the service makes', async () => {
    await inFreshSchema(async (schema) => {
      await (await openPostgresStorage({ url, schema })).close();
      const { rows } = await admin.query<{ indexname: string; indexdef: string }>('SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1', [schema]);
      const def = (name: string): string => rows.find((row) => row.indexname === name)?.indexdef ?? `(no index ${name})`;
      assert.match(def('executions_started_at_idx'), /\(started_at DESC, seq DESC\)/);
      assert.match(def('executions_status_started_at_idx'), /\(status, started_at DESC, seq DESC\)/);
      assert.match(def('executions_task_started_at_idx'), /\(task_id, started_at DESC, seq DESC\)/);
      assert.match(def('users_email_lower_idx'), /^CREATE UNIQUE INDEX .*\(email_lower\)/);
      assert.match(def('sessions_expires_at_ms_idx'), /\(expires_at_ms\)/);
      assert.match(def('claims_pkey'), /\(key\)/);
      for (const table of ['users', 'sessions', 'tasks', 'credentials']) assert.match(def(`${table}_seq_idx`), /\(seq\)/);
    });
  });

  it('serves a filtered history page from an index, not a scan of the table', async () => {
    await inFreshSchema(async (schema) => {
      const storage = await openPostgresStorage({ url, schema });
      try {
        for (let i = 0; i < 20; i += 1) await storage.executions.insert(makeExecution({ taskId: `task-${i % 4}` }));
        const client = await admin.connect();
        try {
          await client.query(`SET search_path = ${schema}; SET enable_seqscan = off; ANALYZE executions`);
          const plan = async (where: string): Promise<string> =>
            (await client.query(`EXPLAIN SELECT summary FROM executions ${where} ORDER BY started_at DESC, seq DESC LIMIT 50`)).rows.map((r) => r['QUERY PLAN']).join('\n');
          assert.match(await plan(''), /Index Scan using executions_started_at_idx/);
          assert.match(await plan(`WHERE status = 'error'`), /executions_status_started_at_idx/);
          assert.match(await plan(`WHERE task_id = 'task-1'`), /executions_task_started_at_idx/);
        } finally {
          client.release();
        }
      } finally {
        await storage.close();
      }
    });
  });
});
