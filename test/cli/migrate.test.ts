// `taskloom migrate`: a JSON store filled by the real service (admin, API key, tasks with a schedule, settings,
// a credential, real runs in Chromium with a capture) is copied into a fresh PostgreSQL database; a service on
// PostgreSQL then serves it all (the old login, cookie and API key work). Interrupted runs resume, finished
// ones are not repeated, and a target holding other data is refused unless --merge or --force.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { command } from '../../cli/commands/migrate.js';
import { CliFailure } from '../../cli/failure.js';
import { migrateStore } from '../../cli/migrate/storage-migration.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { openPostgresStorage } from '../../providers/storage/postgres/postgres-storage.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { makeTask } from '../../testing/storage/harness.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { ADMIN, makeTempDir, sessionCookie, setupAdmin, startService, type TestService } from '../support/service.js';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: adminUrl, max: 2 });
const PASSWORD = `pw-${randomBytes(6).toString('hex')}`; // trust auth ignores it; it must never be printed
const chromium = chromiumOrSkip();

/** A database of our own on the test server, dropped in `after`. */
async function createDatabase(): Promise<string> {
  const name = `taskloom_migrate_${randomBytes(5).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  url.password = PASSWORD;
  return url.href;
}

async function dropDatabase(url: string): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
}

/** The command as the dispatcher runs it: thrown usage errors become exit 2 with their message on stderr. */
async function migrate(args: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (chunk: string) => { stdout += chunk; return true; } } as unknown as NodeJS.WritableStream,
    stderr: { write: (chunk: string) => { stderr += chunk; return true; } } as unknown as NodeJS.WritableStream,
    env: { PATH: process.env.PATH, ...env },
  };
  let code: number;
  try {
    code = await command.run(args, io);
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    stderr += `${error.message}\n`;
    code = error.exitCode;
  }
  assert.ok(!stdout.includes(PASSWORD) && !stderr.includes(PASSWORD), 'the database password is never printed');
  return { code, stdout, stderr };
}

describe('taskloom migrate --to postgres', { skip: chromium.skip }, () => {
  const databases: string[] = [];
  let pages: PagesServer;
  let dataDir: string;
  let db: string;
  let old: { cookie: string; apiKey: string };
  let source: { taskIds: string[]; executions: number; capture: string };

  before(async () => {
    await admin.query('SELECT 1').catch((error: Error) => {
      throw new Error(`PostgreSQL is not reachable for the tests (${error.message}): start it, or set TEST_DATABASE_URL`);
    });
    pages = await startPagesServer();
    dataDir = await makeTempDir('taskloom-migrate-');
    const svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' }, dataDir);
    try {
      old = await setupAdmin(svc);
      source = await fill(svc, pages, old.apiKey);
    } finally {
      await svc.close();
    }
    db = await createDatabase();
    databases.push(db);
  });
  after(async () => {
    for (const url of databases) await dropDatabase(url);
    await admin.end();
    await pages?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses bad options with exit 2 and says what to pass', async () => {
    assert.match((await migrate([])).stderr, /--to is required/);
    assert.equal((await migrate(['--to', 'sqlite'])).code, 2);
    const noUrl = await migrate(['--to', 'postgres', '--data-dir', dataDir]);
    assert.deepEqual([noUrl.code, /DATABASE_URL is required.*--database-url/.test(noUrl.stderr)], [2, true]);
    const noStore = await migrate(['--to', 'postgres', '--data-dir', path.join(dataDir, 'nothing'), '--database-url', db]);
    assert.deepEqual([noStore.code, /no JSON store in/.test(noStore.stderr)], [2, true]);
    assert.equal((await migrate(['--to', 'postgres', '--merge', '--force', '--database-url', db])).code, 2);
    assert.match((await migrate(['--help'])).stdout, /Usage: taskloom migrate --to postgres\|mongodb/);
  });

  it('an interrupted migration resumes when run again, duplicating nothing', async () => {
    const from = await openJsonStorage({ dir: path.join(dataDir, 'store') });
    const to = await openPostgresStorage({ url: db });
    const stop = new AbortController();
    try {
      await assert.rejects(migrateStore({
        from, to, sourceId: `json:${dataDir}`, pageSize: 2, signal: stop.signal,
        onProgress: ({ store, done }) => { if (store === 'executions' && done > 0) stop.abort(); },
      }), { name: 'AbortError' });
      assert.equal(await to.executions.count(), 2, 'one page of executions was copied before the stop');
    } finally {
      await from.close();
      await to.close();
    }
    const again = await migrate(['--to', 'postgres', '--data-dir', dataDir, '--page-size', '2'], { DATABASE_URL: db });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Resumed an interrupted migration/);
    assert.match(again.stdout, new RegExp(`executions +${source.executions} +${source.executions}\\n`));
    assert.match(again.stdout, /tasks +3 +3\n/);
    assert.match(again.stderr, new RegExp(`executions: ${source.executions}/${source.executions}`));
  });

  it('a service on PostgreSQL serves the migrated data: login, the old cookie and API key, tasks, runs, captures', async () => {
    const svc = await startService({ STORAGE: 'postgres', DATABASE_URL: db, ALLOW_PRIVATE_NETWORKS: 'true' }, dataDir);
    try {
      const login = await svc.request('POST', '/api/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
      assert.equal(login.status, 200, login.text);
      assert.equal((await svc.request('GET', '/api/auth/me', { cookie: sessionCookie(login.headers) })).status, 200);
      assert.equal((await svc.request('GET', '/api/auth/me', { cookie: old.cookie })).status, 200, 'the session made on JSON still works');
      const key = { apiKey: old.apiKey };
      const tasks = await svc.request('GET', '/api/tasks', key);
      assert.deepEqual(tasks.body.map((t: { id: string }) => t.id).sort(), [...source.taskIds].sort());
      const scheduled = tasks.body.find((t: { schedule?: { hour?: number } }) => t.schedule);
      assert.equal(scheduled?.schedule.hour, 9);
      const executions = await svc.request('GET', '/api/executions?limit=100', key);
      assert.equal(executions.body.length, source.executions);
      assert.ok(executions.body.every((e: { logs: unknown[] }) => e.logs.length > 0), 'records come whole, with their logs');
      assert.equal((await svc.request('GET', '/api/settings/theme', key)).body.theme, 'light');
      const proxies = await svc.request('GET', '/api/settings/proxies', key);
      assert.equal(proxies.body.proxies[1]?.password, '********');
      const credentials = await svc.request('GET', '/api/credentials', key);
      assert.equal(credentials.text.includes('Team Baserow'), true, credentials.text);
      const capture = await svc.request('GET', `/api/data/captures/${source.capture}`, key);
      assert.equal(capture.status, 200);
    } finally {
      await svc.close();
    }
  });

  it('running it again after it finished copies nothing', async () => {
    const again = await migrate(['--to', 'postgres', '--data-dir', dataDir], { DATABASE_URL: db });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Nothing copied: .* was already migrated/);
    assert.match(again.stdout, new RegExp(`executions +${source.executions} +${source.executions}\\n`));
  });

  it('a target holding other data is refused; --merge keeps it, --force empties it first', async () => {
    const other = await createDatabase();
    databases.push(other);
    const seed = await openPostgresStorage({ url: other });
    await seed.tasks.put(makeTask({ id: 'task_made_on_postgres' }));
    await seed.close();
    const args = ['--to', 'postgres', '--data-dir', dataDir, '--database-url', other];
    const refused = await migrate(args);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /target is not empty \(1 tasks\): use --merge .* or --force/);
    const merged = await migrate([...args, '--merge']);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, /tasks +3 +4\n/);
    assert.match(merged.stdout, /held other data, which was kept/);
    const forced = await migrate([...args, '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /tasks +3 +3\n/);
  });
});

describe('taskloom migrate --to mongodb', () => {
  const url = process.env.MONGODB_URL;
  it('copies the store into MONGODB_URL', {
    skip: url ? false : 'MONGODB_URL is not set: no MongoDB server on this machine; the MongoDB migration did not run',
  }, async () => {
    const dataDir = await makeTempDir('taskloom-migrate-mongo-');
    const database = new URL(url!);
    database.pathname = `/taskloom_migrate_${randomBytes(5).toString('hex')}`;
    try {
      const svc = await startService({}, dataDir);
      const { apiKey } = await setupAdmin(svc);
      await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'kept', url: 'https://example.com', mode: 'agent', actions: [] } });
      await svc.close();
      const result = await migrate(['--to', 'mongodb', '--data-dir', dataDir, '--mongodb-url', database.href]);
      assert.equal(result.code, 0, result.stderr);
      const mongo = await startService({ STORAGE: 'mongodb', MONGODB_URL: database.href }, dataDir);
      try {
        const login = await mongo.request('POST', '/api/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
        assert.equal(login.status, 200, login.text);
        assert.deepEqual((await mongo.request('GET', '/api/tasks', { apiKey })).body.map((t: { name: string }) => t.name), ['kept']);
      } finally {
        await mongo.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

/** Fills the JSON store through the API: 3 tasks (one scheduled), settings, a credential, 3 real runs. */
async function fill(svc: TestService, pages: PagesServer, apiKey: string) {
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await svc.request(method, url, { apiKey, body });
    assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${res.text}`);
    return res.body;
  };
  const shot = await api('POST', '/api/tasks', {
    name: 'Shot', url: `${pages.origin}/second.html`, mode: 'agent', actions: [{ type: 'screenshot' }],
    extractionScript: 'return document.title',
  });
  const scheduled = await api('POST', '/api/tasks', { name: 'Daily', url: `${pages.origin}/index.html`, mode: 'scrape', actions: [] });
  await api('POST', `/api/schedules/${scheduled.id}`, { frequency: 'daily', hour: 9, minute: 0 });
  const failing = await api('POST', '/api/tasks', { name: 'Fails', url: `${pages.origin}/index.html`, mode: 'agent', actions: [{ type: 'click', selector: '#missing', timeoutMs: 300 }] });
  await api('POST', '/api/settings/theme', { theme: 'light' });
  await api('POST', '/api/settings/proxies', { server: 'http://proxy.example.com:8080', username: 'u', password: 'proxy-secret' });
  await api('POST', '/api/credentials', { provider: 'tablestore', name: 'Team Baserow', config: { baseUrl: 'https://baserow.example.com', token: 'tok' } });
  const runs = [await api('POST', `/api/tasks/${shot.id}/api`), await api('POST', `/api/tasks/${scheduled.id}/api`), await api('POST', `/api/tasks/${failing.id}/api`)];
  assert.deepEqual(runs.map((r) => r.status), ['success', 'success', 'error']);
  return { taskIds: [shot.id, scheduled.id, failing.id], executions: runs.length, capture: runs[0].result.captures[0] as string };
}
