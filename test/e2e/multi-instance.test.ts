// Several taskloom processes on one PostgreSQL database behave as one service: sessions, API keys, settings and
// tasks are shared, an every-minute schedule fires once a minute across instances, runs from every instance land in
// one history, and the runs of an instance that crashed are marked `interrupted` by the others without a restart.
// Real processes (spawnService), a fresh database, real Chromium. The schedule test takes about three minutes; the
// other tests run beside it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { ADMIN, makeTempDir, request, sessionCookie, type ApiResponse, type RequestOptions } from '../support/service.js';

const skip = (await postgresUnavailable()) || chromiumOrSkip().skip;
const MINUTE = 60_000;

interface Instance {
  name: string;
  proc: ServiceProcess;
  call<T = any>(method: string, url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

/** Polls `read` until `done` holds; fails naming `what` after `timeoutMs`. */
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value).slice(0, 500)})`);
    await sleep(500);
  }
}

describe('two taskloom instances on one PostgreSQL database', { skip, concurrency: true, timeout: 6 * MINUTE }, () => {
  let db: TestDatabase;
  let pages: PagesServer;
  const dirs: string[] = [];
  const procs: ServiceProcess[] = [];
  let a: Instance, b: Instance, c: Instance;
  let apiKey = '';
  let cookie = '';
  let crashedRunId = '';

  // Instances sharing a database share the key that seals its secrets (each has its own DATA_DIR).
  const SECRETS_KEY = randomBytes(32).toString('base64');
  const spawn = async (name: string, extra: Record<string, string> = {}): Promise<Instance> => {
    const dir = await makeTempDir(`taskloom-${name}-`);
    dirs.push(dir);
    const proc = await spawnService({
      STORAGE: 'postgres', DATABASE_URL: db.url(), DATA_DIR: dir, ALLOW_PRIVATE_NETWORKS: 'true', MAX_CONCURRENT_RUNS: '2', SECRETS_KEY, ...extra,
    });
    procs.push(proc);
    return { name, proc, call: (method, url, options) => request(proc.baseUrl, method, url, { apiKey, ...options }) };
  };
  const createTask = async (on: Instance, name: string, actions: object[]) => {
    const res = await on.call('POST', '/api/tasks', { body: { name, url: `${pages.origin}/index.html`, mode: 'agent', actions } });
    assert.equal(res.status, 200, res.text);
    return res.body.id as string;
  };

  before(async () => {
    pages = await startPagesServer();
    db = await createTestDatabase('taskloom_multi');
    // A generated INSTANCE_ID for A, configured ones for B and C. A migrates the fresh database, then B and C start at once.
    a = await spawn('A');
    [b, c] = await Promise.all([spawn('B', { INSTANCE_ID: 'instance-b' }), spawn('C', { INSTANCE_ID: 'instance-c' })]);
    const setup = await a.call('POST', '/api/auth/setup', { body: ADMIN });
    assert.equal(setup.status, 200, setup.text);
    cookie = sessionCookie(setup.headers);
    apiKey = (await a.call('POST', '/api/settings/api-key', { cookie })).body.apiKey;

    // C crashes in the middle of a run, before any schedule exists (so it never held a scheduled fire).
    const slow = await createTask(c, 'slow on C', [{ type: 'wait', value: '60000' }]);
    void c.call('POST', `/api/tasks/${slow}/api`).catch(() => undefined);
    const [running] = await until('the run on C is running', async () => (await c.call('GET', `/api/executions?taskId=${slow}`)).body,
      (list: any[]) => list[0]?.status === 'running', 30_000);
    crashedRunId = running.executionId;
    assert.equal(await c.proc.stop('SIGKILL'), null);
  });

  after(async () => {
    await Promise.all(procs.map((proc) => proc.stop('SIGTERM')));
    await pages?.close();
    await db?.drop();
    await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });

  it('a session and the API key made on A work on B; a logout on A ends the session on B', async () => {
    const me = await b.call('GET', '/api/auth/me', { apiKey: undefined, cookie });
    assert.deepEqual([me.status, me.body.user?.email], [200, ADMIN.email], me.text);
    assert.equal((await b.call('GET', '/api/tasks')).status, 200, 'the API key made on A');
    const login = await b.call('POST', '/api/auth/login', { apiKey: undefined, body: { email: ADMIN.email, password: ADMIN.password } });
    assert.equal(login.status, 200, login.text);
    const second = sessionCookie(login.headers);
    assert.equal((await a.call('GET', '/api/auth/me', { apiKey: undefined, cookie: second })).status, 200);
    assert.equal((await a.call('POST', '/api/auth/logout', { apiKey: undefined, cookie: second })).status, 200);
    assert.equal((await b.call('GET', '/api/auth/me', { apiKey: undefined, cookie: second })).status, 401);
  });

  it('settings and tasks written on one instance are read on the other', async () => {
    assert.equal((await a.call('POST', '/api/settings/theme', { body: { theme: 'dark' } })).status, 200);
    assert.deepEqual((await b.call('GET', '/api/settings/theme')).body, { theme: 'dark' });
    const id = await createTask(b, 'made on B', [{ type: 'wait', value: '1' }]);
    assert.equal((await a.call('GET', `/api/tasks/${id}`)).body.name, 'made on B');
    assert.equal((await a.call('PATCH', `/api/tasks/${id}`, { body: { name: 'renamed on A' } })).status, 200);
    assert.equal((await b.call('GET', `/api/tasks/${id}`)).body.name, 'renamed on A');
    assert.equal((await b.call('DELETE', `/api/tasks/${id}`)).status, 200);
    assert.equal((await a.call('GET', `/api/tasks/${id}`)).status, 404);
  });

  it('an every-minute schedule fires exactly once a minute across both instances, three minutes running', async (t) => {
    const id = await createTask(a, 'every minute', [{ type: 'javascript', value: 'return document.title' }]);
    assert.equal((await a.call('POST', `/api/schedules/${id}`, { body: { cron: '* * * * *' } })).status, 200);
    // B would pick it up by its periodic sync within 30 s; saving it there too schedules it at once.
    assert.equal((await b.call('POST', `/api/schedules/${id}`, { body: { cron: '* * * * *' } })).status, 200);
    for (const on of [a, b]) {
      const all = (await on.call('GET', '/api/schedules/status/all')).body;
      assert.ok(all.tasks.some((task: { taskId: string }) => task.taskId === id), `${on.name} has it scheduled`);
    }
    const first = Math.ceil(Date.now() / MINUTE); // the first minute both instances fire in
    const minutes = [first, first + 1, first + 2];
    const history = await until('three scheduled runs, finished', async () => (await b.call('GET', `/api/executions?taskId=${id}`)).body as any[],
      (list) => Date.now() > (first + 2) * MINUTE + 3_000 && list.filter((e) => Math.floor(Date.parse(e.queuedAt) / MINUTE) >= first)
        .filter((e) => !['queued', 'running'].includes(e.status)).length >= 3, 4 * MINUTE);
    await sleep(2_000); // a second run of the last minute, were there one, would be recorded by now
    const all = (await a.call('GET', `/api/executions?taskId=${id}`)).body as any[];
    assert.ok(all.length >= history.length);
    const perMinute = new Map<number, number>();
    for (const e of all) perMinute.set(Math.floor(Date.parse(e.queuedAt) / MINUTE), (perMinute.get(Math.floor(Date.parse(e.queuedAt) / MINUTE)) ?? 0) + 1);
    assert.deepEqual(minutes.map((m) => perMinute.get(m) ?? 0), [1, 1, 1], 'one run in each of the three minutes');
    assert.ok([...perMinute.values()].every((n) => n === 1), `never two in a minute: ${JSON.stringify([...perMinute])}`);
    assert.ok(all.every((e) => e.trigger === 'schedule' && e.status === 'success'), JSON.stringify(all.map((e) => [e.trigger, e.status])));
    const ranOn = all.map((e) => (a.proc.output().includes(e.executionId) ? 'A' : b.proc.output().includes(e.executionId) ? 'B' : '?'));
    t.diagnostic(`fires ran on: ${ranOn.join(', ')}`);
  });

  it('runs started on both instances land in one history; a run on B can be followed live from A', async () => {
    const id = await createTask(a, 'on both', [{ type: 'wait', value: '1500' }]);
    const onB = b.call('POST', `/api/tasks/${id}/api`);
    const [queued] = await until('the run on B is in the shared history', async () => (await a.call('GET', `/api/executions?taskId=${id}`)).body,
      (list: any[]) => list.length === 1, 30_000);
    const events = await fetch(`${a.proc.baseUrl}/api/executions/${queued.executionId}/events`, { headers: { 'x-api-key': apiKey } });
    assert.equal(events.status, 200);
    const stream = await events.text(); // ends after the result
    assert.match(stream, /event: status\ndata: \{"status":"(queued|running)"\}/);
    assert.match(stream, /event: result\ndata: \{"executionId":"[^"]+","taskId":"[^"]+","status":"success"/);
    const onA = await a.call('POST', `/api/tasks/${id}/api`);
    const fromB = await onB;
    assert.deepEqual([onA.body.status, fromB.body.status], ['success', 'success']);
    const expected = [onA.body.executionId, fromB.body.executionId].sort();
    for (const on of [a, b]) {
      const list = (await on.call('GET', `/api/executions?taskId=${id}`)).body as any[];
      assert.deepEqual(list.map((e) => e.executionId).sort(), expected, `${on.name} lists both runs`);
      assert.ok(list.every((e) => !('instanceId' in e)), 'the owning instance stays internal');
      const summaries = (await on.call('GET', `/api/executions/list?taskId=${id}`)).body.executions as any[];
      assert.equal(summaries.length, 2);
    }
  });

  it('the run of an instance that crashed becomes interrupted through the others, with no restart', async () => {
    const record = await until('the crashed instance\'s run is interrupted', async () => (await b.call('GET', `/api/executions/${crashedRunId}`)).body,
      (r: any) => r.status === 'interrupted', 90_000);
    assert.ok(record.finishedAt, 'with finishedAt');
    const fromA = (await a.call('GET', `/api/executions/${crashedRunId}`)).body;
    assert.equal(fromA.status, 'interrupted');
  });
});
