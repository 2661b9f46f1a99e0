import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import pg from 'pg';
import { openPostgresStorage, type PostgresStorage } from '../../../providers/storage/postgres/postgres-storage.js';
import { at, makeExecution, makeTask, makeUser } from '../../../testing/storage/harness.js';

/** Two providers (two pools) on one schema: what several taskloom instances on one database see. */
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 2 });
after(() => admin.end());

describe('postgres storage shared by two instances', () => {
  let schema = '';
  let a: PostgresStorage;
  let b: PostgresStorage;
  /** Alternates between the two instances. */
  const either = (i: number): PostgresStorage => (i % 2 === 0 ? a : b);

  beforeEach(async () => {
    schema = `t_${randomBytes(6).toString('hex')}`;
    [a, b] = await Promise.all([openPostgresStorage({ url, schema }), openPostgresStorage({ url, schema })]);
  });

  afterEach(async () => {
    await Promise.all([a.close(), b.close()]);
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it('claims are exclusive across instances: 30 keys, 12 concurrent callers each, one winner per key', async () => {
    const keys = Array.from({ length: 30 }, (_, k) => `fire:task-${k}:09:00`);
    const attempts = keys.flatMap((key) => Array.from({ length: 12 }, (_, i) => either(i).claims.claim(key, `owner-${i}`, 60_000).then((won) => ({ key, won }))));
    const results = await Promise.all(attempts);
    for (const key of keys) assert.equal(results.filter((r) => r.key === key && r.won).length, 1, key);
  });

  it('an expired claim is retaken by exactly one instance', async () => {
    assert.equal(await a.claims.claim('short', 'a', 50), true);
    assert.equal(await b.claims.claim('short', 'b', 50), false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => either(i).claims.claim('short', `owner-${i}`, 60_000)));
    assert.equal(results.filter(Boolean).length, 1);
  });

  it('insertFirst stores exactly one user across instances', async () => {
    const candidates = Array.from({ length: 16 }, () => makeUser());
    const results = await Promise.all(candidates.map((user, i) => either(i).users.insertFirst(user)));
    assert.equal(results.filter(Boolean).length, 1);
    assert.deepEqual(await b.users.list(), [candidates[results.indexOf(true)]]);
  });

  it('concurrent updates from both instances lose no change', async () => {
    const task = makeTask({ name: '0' });
    await a.tasks.put(task);
    await Promise.all(Array.from({ length: 40 }, (_, i) => either(i).tasks.update(task.id, (cur) => ({ ...cur, name: String(Number(cur.name) + 1) }))));
    assert.equal((await b.tasks.get(task.id))?.name, '40');
    await Promise.all(Array.from({ length: 40 }, (_, i) => either(i).settings.update<number>('counter', (cur) => (cur ?? 0) + 1)));
    assert.equal(await a.settings.get('counter'), 40);
  });

  it('a write on one instance is read on the other; history pages agree', async () => {
    const task = makeTask();
    await a.tasks.put(task);
    assert.deepEqual(await b.tasks.get(task.id), task);
    await b.sessions.put({ id: 's1', userId: 'u1', createdAt: task.createdAt, expiresAtMs: 1 });
    assert.equal(await a.sessions.deleteExpired(2), 1);
    assert.equal(await b.sessions.count(), 0);
    for (let i = 0; i < 6; i += 1) await either(i).executions.insert(makeExecution({ executionId: `run-${i}`, startedAt: at(i) }));
    const page = ['run-5', 'run-4', 'run-3'];
    assert.deepEqual((await a.executions.summaries({ limit: 3 })).map((s) => s.executionId), page);
    assert.deepEqual((await b.executions.summaries({ limit: 3 })).map((s) => s.executionId), page);
  });
});
