// BROWSER_WS_ENDPOINT pointing at a Playwright browser server: the real service (its own process, so its logs
// are read as an operator would) runs tasks there, fails a run in flight when the server goes away, and
// reconnects with backoff once a new server listens on the same port. Puppeteer refuses such a server clearly.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserServer } from 'playwright';
import { createBrowserPool } from '../../../layers/browser-pool/browser-pool.js';
import { createPlaywrightDriver } from '../../../providers/browser/playwright/index.js';
import { chromiumOrSkip } from '../../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../../support/pages-server.js';
import { spawnService, type ServiceProcess } from '../../support/process.js';
import { makeTempDir, request, setupAdmin, startService, type TestService } from '../../support/service.js';
import { liveGroupMembers, waitFor } from '../../../testing/browser/chromium-processes.js';
import { silentLogger } from '../../../testing/loggers.js';
import { chromiumChildrenOf, closePlaywrightServer, launchPlaywrightServer } from './remote-browsers.js';

const found = chromiumOrSkip();
const TOKEN = `tok-${crypto.randomBytes(12).toString('hex')}`;
const WS_PATH = `/pw-${crypto.randomBytes(12).toString('hex')}`;

describe('BROWSER_WS_ENDPOINT: a Playwright browser server', { skip: found.skip }, () => {
  let pages: PagesServer;
  let server: BrowserServer | undefined;
  let svc: ServiceProcess;
  let dataDir: string;
  let apiKey: string;
  let port: number;
  const api = (method: string, url: string, body?: unknown) => request(svc.baseUrl, method, url, { apiKey, body });
  const createTask = async (task: Record<string, unknown>) => {
    const res = await api('POST', '/api/tasks', { name: 'remote', mode: 'agent', actions: [], ...task });
    assert.equal(res.status, 200, res.text);
    return res.body.id as string;
  };
  const run = (id: string) => api('POST', `/api/tasks/${id}/api`);

  before(async () => {
    pages = await startPagesServer();
    server = await launchPlaywrightServer(found.path!, { wsPath: WS_PATH });
    port = Number(new URL(server.wsEndpoint()).port);
    dataDir = await makeTempDir();
    svc = await spawnService({
      DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_ENGINE: 'playwright', MAX_CONCURRENT_RUNS: '4',
      // The query string stands for a grid's token: the service must never log it.
      BROWSER_WS_ENDPOINT: `${server.wsEndpoint()}?token=${TOKEN}`,
    });
    ({ apiKey } = await setupAdmin({ baseUrl: svc.baseUrl, request: (m, u, o) => request(svc.baseUrl, m, u, o) } as TestService));
  });
  after(async () => {
    if (svc) assert.deepEqual(chromiumChildrenOf(svc.child.pid!), [], 'the service launched no Chromium of its own');
    await svc?.stop();
    if (server) await closePlaywrightServer(server);
    await pages?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('runs tasks through the API on the remote browser', async () => {
    const id = await createTask({ url: `${pages.origin}/second.html`, extractionScript: 'return document.title' });
    const res = await run(id);
    assert.equal(res.body.status, 'success', res.text);
    assert.equal(res.body.result.data, 'Second page');
  });

  it('a run in flight when the server goes away fails at once, saying why', async () => {
    const id = await createTask({ url: `${pages.origin}/slow?ms=20000`, timeoutMs: 60_000 });
    const started = Date.now();
    const answer = run(id);
    await waitFor(() => pages.requests.some((r) => r.startsWith('/slow')), 10_000, 'the run to open the slow page');
    const pid = server!.process().pid!;
    await server!.kill(); // as a crash would: no page is closed first
    await waitFor(() => liveGroupMembers(pid).length === 0, 5000, 'the server\'s Chromium to end');
    await server!.close();
    server = undefined;
    const res = await answer;
    assert.equal(res.body.status, 'error', res.text);
    assert.match(res.body.result.error.message, /connection to the remote browser at ws:\/\/127\.0\.0\.1:\d+\/\*\*\*\?token=\*\*\* closed during the run/);
    assert.ok(Date.now() - started < 15_000, `ended after ${Date.now() - started} ms, not at its 60 s limit`);
  });

  it('runs asked while the server is down reconnect with backoff once it is back on the same port', async () => {
    const id = await createTask({ url: `${pages.origin}/index.html`, extractionScript: 'return document.title' });
    const waiting = [run(id), run(id)];
    await waitFor(() => svc.output().includes('cannot reach the remote browser; retrying'), 10_000, 'a failed reconnection attempt');
    await sleep(300);
    server = await launchPlaywrightServer(found.path!, { port, wsPath: WS_PATH });
    for (const res of await Promise.all(waiting)) {
      assert.equal(res.body.status, 'success', res.text);
      assert.equal(res.body.result.data, 'Fixture home');
    }
    assert.equal((await run(id)).body.status, 'success', 'and the run after them');
    assert.match(svc.output(), /reconnected to the remote browser/);
  });

  it('logs say what happened, never the token or the server path', () => {
    const logs = svc.output();
    assert.match(logs, /the connection to the remote browser closed; the next run reconnects/);
    assert.match(logs, /"endpoint":"ws:\/\/127\.0\.0\.1:\d+\/\*\*\*\?token=\*\*\*"/);
    assert.ok(!logs.includes(TOKEN), 'the token is never logged');
    assert.ok(!logs.includes(WS_PATH.slice(1)), 'the secret path is never logged');
  });
});

describe('BROWSER_WS_ENDPOINT: Puppeteer and a Playwright browser server', { skip: found.skip }, () => {
  let server: BrowserServer;
  let svc: TestService;
  before(async () => {
    server = await launchPlaywrightServer(found.path!, { wsPath: WS_PATH });
    svc = await startService({ BROWSER_ENGINE: 'puppeteer', BROWSER_WS_ENDPOINT: server.wsEndpoint() });
  });
  after(async () => {
    await svc?.close();
    if (server) await closePlaywrightServer(server);
  });

  it('the first run fails at once with what to change, without retrying', async () => {
    const started = Date.now();
    const outcome = await svc.service.services.browser.withContext({}, async () => 'never');
    assert.equal(outcome.status, 'error');
    const message = outcome.status === 'error' ? outcome.error.message : '';
    assert.match(message, /Playwright browser server/);
    assert.match(message, /BROWSER_ENGINE=playwright/);
    assert.ok(!message.includes(WS_PATH.slice(1)), message);
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  });
});

describe('BROWSER_WS_ENDPOINT: nobody listening', () => {
  it('runs waiting for the connection fail after the reconnection window, saying why, without the token', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (obj: unknown, msg?: string) => { warnings.push(`${JSON.stringify(obj)} ${msg}`); } };
    const pool = createBrowserPool({
      driver: createPlaywrightDriver(), logger, reconnectWindowMs: 4000, // room for several attempts on a loaded machine
      config: { browserExecutablePath: undefined, browserWsEndpoint: `ws://127.0.0.1:${port}/pw-server?token=${TOKEN}` },
    });
    try {
      const started = Date.now();
      const [first, second] = await Promise.all([1, 2].map(() => pool.withContext({}, async () => 'never')));
      for (const outcome of [first!, second!]) {
        assert.equal(outcome.status, 'error');
        const message = outcome.status === 'error' ? outcome.error.message : '';
        assert.match(message, /Cannot use the remote browser at ws:\/\/127\.0\.0\.1:\d+\/pw-server\?token=\*\*\* \(BROWSER_WS_ENDPOINT\) after \d+ attempts over \d+ s: .*ECONNREFUSED/);
        assert.ok(!message.includes(TOKEN));
      }
      assert.ok(Date.now() - started < 15_000, `gave up after ${Date.now() - started} ms`);
      assert.ok(warnings.filter((line) => line.includes('retrying')).length >= 2, 'the failed attempts are logged');
      assert.ok(!warnings.join('\n').includes(TOKEN));
    } finally {
      await pool.close();
    }
  });
});
