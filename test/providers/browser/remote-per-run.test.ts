// BROWSER_REMOTE_MODE=per-run against a stand-in grid (test/stand-ins/browser-grid.ts) in front of a real
// Playwright server: one grid session per run, closed at its end; a grid at capacity (429), unavailable (503)
// or not answering turns the run away at once with a retryable error; a session cut mid-run ends that run.
// The default (shared) keeps one session for every run.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { BrowserServer } from 'playwright';
import { createBrowserPool, type BrowserPool } from '../../../layers/browser-pool/browser-pool.js';
import type { ContextHandle } from '../../../kernel/contracts/browser.js';
import { createPlaywrightDriver } from '../../../providers/browser/playwright/index.js';
import { chromiumOrSkip } from '../../../testing/browser.contract.js';
import { waitFor } from '../../../testing/browser/chromium-processes.js';
import { createRecordingLogger } from '../../../testing/loggers.js';
import { startPagesServer, type PagesServer } from '../../support/pages-server.js';
import { startBrowserGrid, type BrowserGrid } from '../../stand-ins/browser-grid.js';
import { closePlaywrightServer, launchPlaywrightServer } from './remote-browsers.js';

const found = chromiumOrSkip();
const TOKEN = `tok-${crypto.randomBytes(12).toString('hex')}`;
const WS_PATH = `/pw-${crypto.randomBytes(12).toString('hex')}`;
const T = 5000;

describe('BROWSER_REMOTE_MODE=per-run: a grid in front of a Playwright server', { skip: found.skip }, () => {
  let pages: PagesServer;
  let server: BrowserServer;
  let grid: BrowserGrid;
  const logs = createRecordingLogger();
  const pools: BrowserPool[] = [];
  const makePool = (mode: 'shared' | 'per-run' = 'per-run', launchTimeoutMs = 10_000) => {
    const pool = createBrowserPool({
      driver: createPlaywrightDriver(), logger: logs, launchTimeoutMs, warmContexts: 2,
      config: { browserWsEndpoint: grid.url(`/playwright?token=${TOKEN}`), browserRemoteMode: mode },
    });
    pools.push(pool);
    return pool;
  };
  const title = (path: string) => async (context: ContextHandle) => {
    const page = await context.newPage();
    await page.goto(`${pages.origin}${path}`, T);
    return page.title();
  };
  const errorOf = (outcome: Awaited<ReturnType<BrowserPool['withContext']>>) => {
    assert.equal(outcome.status, 'error', JSON.stringify(outcome));
    return (outcome as { error: Error & { retryable?: boolean; code?: string; status?: number } }).error;
  };

  before(async () => {
    pages = await startPagesServer();
    server = await launchPlaywrightServer(found.path!, { wsPath: WS_PATH });
    grid = await startBrowserGrid({ port: Number(new URL(server.wsEndpoint()).port), path: WS_PATH });
  });
  after(async () => {
    for (const pool of pools) await pool.close();
    await grid?.close();
    if (server) await closePlaywrightServer(server);
    await pages?.close();
  });

  it('each run opens a session of its own and closes it at its end', async () => {
    const pool = makePool();
    const before = grid.admitted;
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await pool.withContext({}, title('/second.html')), { status: 'ok', value: 'Second page' });
      await waitFor(() => grid.active === 0, 3000, 'the run\'s session to close');
    }
    assert.equal(grid.admitted - before, 3, 'one session per run');
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const both = [1, 2].map(() => pool.withContext({}, async (context) => { await held; return title('/index.html')(context); }));
    await waitFor(() => grid.active === 2, 10_000, 'two runs holding two sessions at once');
    release();
    for (const outcome of await Promise.all(both)) assert.deepEqual(outcome, { status: 'ok', value: 'Fixture home' });
    await waitFor(() => grid.active === 0, 3000, 'both sessions to close');
    assert.equal(pool.warmContexts!(), 0, 'no context is made ahead on a remote browser');
    assert.equal(pool.browserPid(), undefined);
  });

  it('a grid at capacity turns the runs beyond it away at once, as retryable', async () => {
    const pool = makePool();
    await waitFor(() => grid.active === 0, 3000, 'no session open');
    grid.maxSessions = 1;
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      const first = pool.withContext({}, async (context) => { await held; return title('/second.html')(context); });
      await waitFor(() => grid.active === 1, 10_000, 'the first run\'s session');
      const started = Date.now();
      const [second, third] = await Promise.all([pool.withContext({}, title('/index.html')), pool.withContext({}, title('/index.html'))]);
      assert.ok(Date.now() - started < 5000, `turned away after ${Date.now() - started} ms`);
      for (const outcome of [second!, third!]) {
        const error = errorOf(outcome);
        assert.equal(error.name, 'RemoteBrowserBusyError');
        assert.equal(error.retryable, true);
        assert.equal(error.code, 'REMOTE_BROWSER_BUSY');
        assert.equal(error.status, 429);
        assert.match(error.message, /^The remote browser at ws:\/\/127\.0\.0\.1:\d+\/playwright\?token=\*\*\* \(BROWSER_WS_ENDPOINT\) turned the run's session away: it answered HTTP 429 Too Many Requests .*; the run can be retried later$/);
        assert.ok(!error.message.includes(TOKEN));
      }
      release();
      assert.deepEqual(await first, { status: 'ok', value: 'Second page' }, 'the admitted run is not disturbed');
      assert.equal(pool.openContexts(), 0);
    } finally {
      grid.maxSessions = Number.POSITIVE_INFINITY;
    }
  });

  it('503, or no answer within the connection timeout, is a refusal too; one attempt each', async () => {
    const pool = makePool('per-run', 1500);
    try {
      grid.refuseWith = 503;
      const unavailable = errorOf(await pool.withContext({}, title('/index.html')));
      assert.equal(unavailable.retryable, true);
      assert.equal(unavailable.status, 503);
      assert.match(unavailable.message, /HTTP 503 Service Unavailable/);
      grid.refuseWith = 'hang';
      const attempts = grid.attempts;
      const started = Date.now();
      const silent = errorOf(await pool.withContext({}, title('/index.html')));
      assert.ok(Date.now() - started < 6000, `gave up after ${Date.now() - started} ms`);
      assert.equal(silent.name, 'RemoteBrowserBusyError');
      assert.match(silent.message, /did not accept the connection within 1500 ms/);
      assert.equal(grid.attempts - attempts, 1, 'the grid is asked once per run');
    } finally {
      grid.refuseWith = undefined;
    }
    assert.deepEqual(await pool.withContext({}, title('/second.html')), { status: 'ok', value: 'Second page' }, 'and the next run gets in');
  });

  it('a session cut during the run ends that run at once, saying why', async () => {
    const pool = makePool();
    const started = Date.now();
    const running = pool.withContext({}, async (context) => {
      const page = await context.newPage();
      await page.goto(`${pages.origin}/slow?ms=20000`, 30_000);
    });
    await waitFor(() => pages.requests.some((r) => r.startsWith('/slow')), 10_000, 'the run to open the slow page');
    grid.cutAll();
    const error = errorOf(await running);
    assert.match(error.message, /connection to the remote browser at ws:\/\/127\.0\.0\.1:\d+\/playwright\?token=\*\*\* closed during the run/);
    assert.ok(Date.now() - started < 10_000, `ended after ${Date.now() - started} ms`);
    assert.equal(pool.openContexts(), 0);
    assert.deepEqual(await pool.withContext({}, title('/second.html')), { status: 'ok', value: 'Second page' });
  });

  it('shared (the default) keeps one session for every run and makes no context ahead', async () => {
    const pool = makePool('shared');
    const before = grid.admitted;
    for (let i = 0; i < 3; i++) assert.deepEqual(await pool.withContext({}, title('/second.html')), { status: 'ok', value: 'Second page' });
    assert.equal(grid.admitted - before, 1);
    assert.equal(grid.active, 1, 'held between runs');
    assert.equal(pool.warmContexts!(), 0);
    await pool.close();
    await waitFor(() => grid.active === 0, 3000, 'the shared session to close with the pool');
  });

  it('the token is never logged', () => {
    const text = logs.lines.join('\n');
    assert.match(text, /turned a session away/);
    assert.ok(!text.includes(TOKEN), 'the token is never logged');
  });
});
