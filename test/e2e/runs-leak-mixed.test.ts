// A mixed batch of runs on the service as its own process (success, scrape, error, timeout, a page script that
// never settles, a renderer that runs out of memory, a stateless run, a run in an open browser session, runs
// cancelled while queued and while running), counting the Chromium processes it started from /proc: at most the
// one warm browser while it idles, none after SIGTERM, and none left from a kill -9 once it has started again.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { ADMIN, makeTempDir, request, sessionCookie } from '../support/service.js';
import { browsersOf, chromiumOf, describeProcesses } from './runs-leak-processes.js';

const chromium = chromiumOrSkip();

async function until<T>(what: string, timeoutMs: number, probe: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(value).slice(0, 2000)}`);
    await sleep(250);
  }
}

describe('Chromium processes after a mixed batch of runs, SIGTERM, and kill -9 with a restart', { skip: chromium.skip }, () => {
  let pages: PagesServer;
  let dataDir: string;
  let svc: ServiceProcess | undefined;
  const env = () => ({ DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true', MAX_CONCURRENT_RUNS: '1', RUN_MEMORY_LIMIT_MB: '256' });
  before(async () => {
    pages = await startPagesServer();
    dataDir = await makeTempDir('taskloom-leak-');
  });
  after(async () => {
    await svc?.stop('SIGKILL');
    await pages?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('leaves at most the warm browser while idle, none after SIGTERM, none from a killed instance after a restart', { timeout: 600_000 }, async (t) => {
    svc = await spawnService(env());
    const setup = await request(svc.baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
    const cookie = sessionCookie(setup.headers);
    const apiKey = (await request(svc.baseUrl, 'POST', '/api/settings/api-key', { cookie })).body.apiKey as string;
    const api = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => request(svc!.baseUrl, method, url, { apiKey, body, headers });
    const task = async (name: string, script: string, extra: Record<string, unknown> = {}) => {
      const res = await api('POST', '/api/tasks', { name, mode: 'agent', url: `${pages.origin}/second.html`, actions: [{ type: 'javascript', value: script }], ...extra });
      assert.equal(res.status, 200, res.text);
      return res.body.id as string;
    };
    const ok = await task('ok', 'return document.title');
    const scrape = await task('scrape', 'return 1', { mode: 'scrape', actions: [], extractionScript: 'return document.title' });
    const failing = await task('failing', 'throw new Error("planned failure")');
    const busy = await task('busy loop', 'while (true) {}', { timeoutMs: 3000 });
    const pending = await task('never settles', 'await new Promise(() => {})', { timeoutMs: 3000 });
    const hog = await task('memory hog', 'const a = []; for (;;) a.push(new Array(1e6).fill(Math.random()));', { timeoutMs: 120_000 });
    const slow = await task('slow', 'await new Promise((r) => setTimeout(r, 30000)); return 1', { timeoutMs: 120_000 });
    const run = async (id: string, body: unknown = {}) => (await api('POST', `/api/tasks/${id}/api`, body)).body.status as string;

    const statuses: Record<string, string> = {
      ok: await run(ok), scrape: await run(scrape), failing: await run(failing), busy: await run(busy),
      pending: await run(pending), stateless: await run(ok, { statelessExecution: true }), hog: await run(hog),
    };
    const session = await api('POST', '/api/browser/open', { headless: true });
    assert.equal(session.status, 200, session.text);
    statuses.session = await run(ok, { sessionId: session.body.sessionId });
    assert.equal((await api('POST', '/api/browser/close', { sessionId: session.body.sessionId })).status, 200);
    // One run at a time: the second waits in the queue; cancel it there, then the first while it runs.
    const running = await api('POST', `/api/tasks/${slow}/api`, {}, { prefer: 'respond-async' });
    const queued = await api('POST', `/api/tasks/${ok}/api`, {}, { prefer: 'respond-async' });
    assert.deepEqual([running.status, queued.status], [202, 202], `${running.text} ${queued.text}`);
    const status = async (id: string) => (await api('GET', `/api/executions/${id}`)).body.status as string;
    await until('the slow run to start', 60_000, () => status(running.body.executionId), (s) => s === 'running');
    assert.equal(await status(queued.body.executionId), 'queued');
    statuses.cancelledQueued = (await api('POST', `/api/executions/${queued.body.executionId}/cancel`)).body.status;
    statuses.cancelledRunning = (await api('POST', `/api/executions/${running.body.executionId}/cancel`)).body.status;
    t.diagnostic(`statuses: ${JSON.stringify(statuses)}`);
    assert.deepEqual(statuses, {
      ok: 'success', scrape: 'success', failing: 'error', busy: 'timeout', pending: 'timeout', stateless: 'success',
      hog: 'error', session: 'success', cancelledQueued: 'cancelled', cancelledRunning: 'cancelled',
    });

    const idle = await until('at most the warm browser', 60_000, () => browsersOf(dataDir), (groups) => groups.size <= 1);
    t.diagnostic(`idle: ${idle.size} browser, ${chromiumOf(dataDir).length} processes`);
    assert.equal(await svc.stop('SIGTERM'), 0);
    await until('no Chromium after SIGTERM', 20_000, () => chromiumOf(dataDir), (list) => list.length === 0)
      .catch((error) => assert.fail(`${error.message}\n${describeProcesses(chromiumOf(dataDir))}`));

    // kill -9 in the middle of a run, with the warm browser and a session's browser up.
    svc = await spawnService(env());
    const again = (await request(svc.baseUrl, 'POST', '/api/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } }));
    assert.equal(again.status, 200, again.text);
    assert.equal(await run(ok), 'success');
    assert.equal((await api('POST', '/api/browser/open', { headless: true })).status, 200);
    const cut = await api('POST', `/api/tasks/${slow}/api`, {}, { prefer: 'respond-async' });
    await until('the slow run to start', 60_000, () => status(cut.body.executionId), (s) => s === 'running');
    const before = browsersOf(dataDir);
    t.diagnostic(`before kill -9: ${before.size} browsers, ${chromiumOf(dataDir).length} processes`);
    assert.ok(before.size >= 2, 'the warm browser and the session\'s are up');
    await svc.stop('SIGKILL');
    svc = await spawnService(env());
    assert.equal(await run(ok), 'success');
    await until('the killed instance\'s browsers to be gone', 30_000, () => chromiumOf(dataDir).filter((p) => before.has(p.pgid)), (list) => list.length === 0)
      .catch((error) => assert.fail(`${error.message}\n${describeProcesses(chromiumOf(dataDir))}`));
    await until('at most the warm browser', 60_000, () => browsersOf(dataDir), (groups) => groups.size <= 1);
    assert.equal(await svc.stop('SIGTERM'), 0);
    await until('no Chromium after SIGTERM', 20_000, () => chromiumOf(dataDir), (list) => list.length === 0)
      .catch((error) => assert.fail(`${error.message}\n${describeProcesses(chromiumOf(dataDir))}`));
  });
});
