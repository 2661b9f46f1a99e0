// A task import is all or nothing across a crash: a real service process is killed (SIGKILL) at several moments of
// an import of 8,800 tasks; after each restart either none or all of that bundle's tasks exist. On the json store
// (one journal line) and on PostgreSQL (one transaction).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, postgresUnavailable } from '../support/postgres-database.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { ADMIN, makeTempDir, request, sessionCookie } from '../support/service.js';

const TASKS = 8800;
const postgres = await postgresUnavailable();
/** When each killed import is cut, as a share of how long a whole one took. */
const CUTS = [0.3, 0.6, 0.85, 0.95, 0.99, 1.02];

function bundleOf(prefix: string) {
  const at = '2024-03-01T09:00:00.000Z';
  return {
    format: 'taskloom.tasks', formatVersion: 1, exportedAt: at,
    tasks: Array.from({ length: TASKS }, (_, i) => ({
      id: `${prefix}_${i}`, name: `${prefix} task ${i}`, url: `https://example.com/item/${i}`, mode: 'agent',
      actions: [{ type: 'navigate', value: `https://example.com/item/${i}` }, { type: 'click', selector: '#buy', timeoutMs: 5000 }],
      variables: { item: i }, createdAt: at, updatedAt: at, versions: [],
    })),
  };
}

async function credentials(proc: ServiceProcess): Promise<string> {
  const setup = await request(proc.baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
  const key = await request(proc.baseUrl, 'POST', '/api/settings/api-key', { cookie: sessionCookie(setup.headers) });
  assert.equal(key.status, 200, key.text);
  return key.body.apiKey;
}

/** Per bundle prefix, how many of its tasks are stored. */
async function countsByPrefix(proc: ServiceProcess, apiKey: string): Promise<Map<string, number>> {
  const res = await request(proc.baseUrl, 'GET', '/api/tasks', { apiKey });
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const counts = new Map<string, number>();
  for (const task of res.body as Array<{ id: string }>) {
    const prefix = task.id.split('_')[0]!;
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return counts;
}

/** Resolves once the store starts writing the import (polled every few ms), so the kill lands inside the write. */
type WriteWatch = (signal: AbortSignal) => Promise<void>;

async function killedImports(env: Record<string, string>, writing: WriteWatch): Promise<void> {
  let proc = await spawnService(env);
  try {
    const apiKey = await credentials(proc);
    const base = bundleOf('whole');
    const body = JSON.stringify(base);
    const started = Date.now();
    const whole = await request(proc.baseUrl, 'POST', '/api/tasks/import', { apiKey, raw: body, headers: { 'content-type': 'application/json' } });
    const tookMs = Date.now() - started;
    assert.equal(whole.status, 200, whole.text.slice(0, 300));
    assert.equal(whole.body.created.length, TASKS);
    const outcomes: string[] = [];
    for (const [n, share] of CUTS.entries()) {
      const prefix = `cut${n}`;
      const payload = JSON.stringify(bundleOf(prefix));
      const sent = request(proc.baseUrl, 'POST', '/api/tasks/import', { apiKey, raw: payload, headers: { 'content-type': 'application/json' } }).catch(() => undefined);
      await sleep(Math.round(tookMs * share));
      await proc.stop('SIGKILL');
      const answered = await sent;
      proc = await spawnService(env);
      const counts = await countsByPrefix(proc, apiKey);
      const kept = counts.get(prefix) ?? 0;
      outcomes.push(`${prefix}: killed at ${Math.round(tookMs * share)} ms, ${kept} kept${answered?.status === 200 ? ' (answered before the kill)' : ''}`);
      assert.equal(counts.get('whole'), TASKS, 'the finished import is intact');
      assert.ok(kept === 0 || kept === TASKS, `after a kill at ${Math.round(share * 100)}% of an import: ${kept} of ${TASKS} tasks kept`);
      if (answered?.status === 200) assert.equal(kept, TASKS, 'an import answered before the kill is kept whole');
    }
    // Once more, killed the moment the store starts writing the bundle.
    const payload = JSON.stringify(bundleOf('inwrite'));
    const watch = new AbortController();
    const seen = writing(watch.signal);
    const sent = request(proc.baseUrl, 'POST', '/api/tasks/import', { apiKey, raw: payload, headers: { 'content-type': 'application/json' } }).catch(() => undefined);
    const caught = await Promise.race([seen.then(() => true), sleep(tookMs * 3).then(() => false)]);
    await proc.stop('SIGKILL');
    watch.abort();
    const answered = await sent;
    proc = await spawnService(env);
    const kept = (await countsByPrefix(proc, apiKey)).get('inwrite') ?? 0;
    outcomes.push(`inwrite: killed ${caught ? 'as the write began' : 'late (the write was not seen)'}, ${kept} kept${answered?.status === 200 ? ' (answered before the kill)' : ''}`);
    assert.ok(kept === 0 || kept === TASKS, `after a kill during the write: ${kept} of ${TASKS} tasks kept`);
    console.log(`# a whole import took ${tookMs} ms; ${outcomes.join('; ')}`);
  } finally {
    await proc.stop('SIGKILL');
  }
}

describe('task import across a crash', () => {
  it('json store: after SIGKILL mid-import, none or all of the bundle', { timeout: 400_000 }, async () => {
    const dataDir = await makeTempDir();
    try {
      const journal = path.join(dataDir, 'store', 'tasks.jsonl');
      const sizeOf = () => fs.stat(journal).then((s) => s.size, () => 0);
      // The journal grows as the bundle's one line is written.
      await killedImports({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }, async (signal) => {
        const before = await sizeOf();
        while (!signal.aborted && (await sizeOf()) === before) await sleep(1);
      });
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL: after SIGKILL mid-import, none or all of the bundle', { skip: postgres, timeout: 400_000 }, async () => {
    const dataDir = await makeTempDir();
    const db = await createTestDatabase('taskloom_import_crash');
    try {
      // The import's transaction shows in pg_stat_activity once its first INSERT is sent.
      await killedImports({ DATA_DIR: dataDir, LOG_LEVEL: 'info', STORAGE: 'postgres', DATABASE_URL: db.url() }, async (signal) => {
        const watcher = new pg.Client({ connectionString: db.url() });
        await watcher.connect();
        try {
          const sql = "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'INSERT INTO tasks%' AND pid <> pg_backend_pid()";
          while (!signal.aborted && (await watcher.query<{ n: number }>(sql)).rows[0]!.n === 0) await sleep(2);
        } finally {
          await watcher.end();
        }
      });
    } finally {
      await db.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
