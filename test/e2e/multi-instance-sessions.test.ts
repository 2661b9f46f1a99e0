// Browser sessions and login limits through either of two taskloom processes on one PostgreSQL database: a browser
// opened on A is driven through B (Playwright over the relayed DevTools URL, and a raw client whose refused methods
// stay refused, judged once, by A), its token works on B once, it is closed through B; behind a round-robin load
// balancer (no stickiness) the same works wherever each connection lands; 20 wrong logins spread over A and B meet
// one limit. Real processes (spawnService), a fresh database, real Chromium.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { chromium as playwright } from 'playwright';
import WebSocket from 'ws';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { connectRawCdp } from '../support/raw-cdp-client.js';
import { startRoundRobin, type RoundRobin } from '../support/round-robin.js';
import { ADMIN, makeTempDir, request, sessionCookie, type ApiResponse, type RequestOptions } from '../support/service.js';

const chromium = chromiumOrSkip();
const skip = (await postgresUnavailable()) || chromium.skip;

interface Instance {
  name: string;
  proc: ServiceProcess;
  call<T = any>(method: string, url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

/** The HTTP status a WebSocket upgrade to `url` gets: 101 when it opens. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (req, res) => { resolve(res.statusCode ?? 0); req.destroy(); });
    socket.on('open', () => { resolve(101); socket.close(); });
    socket.on('error', () => resolve(0));
  });
}

/** `wsEndpoint` with the origin of `base` (another instance, or the load balancer). */
const via = (wsEndpoint: string, base: string) => {
  const url = new URL(wsEndpoint);
  const to = new URL(base);
  url.host = to.host;
  return url.toString();
};
const lines = (proc: ServiceProcess, message: string) => proc.output().split('\n').filter((line) => line.includes(message)).length;

describe('browser sessions and login limits across two instances on one PostgreSQL database', { skip, timeout: 240_000 }, () => {
  let db: TestDatabase;
  let pages: PagesServer;
  let lb: RoundRobin | undefined;
  const dirs: string[] = [];
  const procs: ServiceProcess[] = [];
  let a: Instance, b: Instance;
  let apiKey = '';
  const SECRETS_KEY = randomBytes(32).toString('base64');

  const spawn = async (name: string, id: string): Promise<Instance> => {
    const dir = await makeTempDir(`taskloom-${name}-`);
    dirs.push(dir);
    const proc = await spawnService({
      STORAGE: 'postgres', DATABASE_URL: db.url(), DATA_DIR: dir, ALLOW_PRIVATE_NETWORKS: 'true', SECRETS_KEY,
      INSTANCE_ID: id, BROWSER_EXECUTABLE_PATH: chromium.path!, DISPLAY: '',
    });
    procs.push(proc);
    return { name, proc, call: (method, url, options) => request(proc.baseUrl, method, url, { apiKey, ...options }) };
  };
  const open = async (on: Instance | string) => {
    const res = typeof on === 'string' ? await request(on, 'POST', '/api/browser/open', { apiKey, body: { headless: true } })
      : await on.call('POST', '/api/browser/open', { body: { headless: true } });
    assert.equal(res.status, 200, res.text);
    return res.body as { sessionId: string; wsEndpoint: string };
  };

  before(async () => {
    pages = await startPagesServer();
    db = await createTestDatabase('taskloom_sessions');
    a = await spawn('A', 'alpha');
    b = await spawn('B', 'beta');
    const setup = await a.call('POST', '/api/auth/setup', { body: ADMIN });
    assert.equal(setup.status, 200, setup.text);
    apiKey = (await a.call('POST', '/api/settings/api-key', { cookie: sessionCookie(setup.headers) })).body.apiKey;
  });

  after(async () => {
    await lb?.close();
    await Promise.all(procs.map((proc) => proc.stop('SIGTERM')));
    await pages?.close();
    await db?.drop();
    await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });

  it('each instance advertises in its lease the URL the others reach it at', async () => {
    const client = new pg.Client({ connectionString: db.url() });
    await client.connect();
    try {
      const { rows } = await client.query<{ value: Record<string, { url?: string }> }>("SELECT value FROM settings WHERE key = 'instanceLeases'");
      assert.deepEqual([rows[0]!.value.alpha?.url, rows[0]!.value.beta?.url], [a.proc.baseUrl, b.proc.baseUrl]);
    } finally {
      await client.end();
    }
  });

  it('a browser opened on A is driven through B with Playwright; A judges every message, B only pipes', async () => {
    const { sessionId, wsEndpoint } = await open(a);
    const browser = await playwright.connectOverCDP(via(wsEndpoint, b.proc.baseUrl));
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${pages.origin}/`);
    assert.equal(await page.title(), 'Fixture home');
    await page.click('#increment');
    assert.equal(await page.textContent('#count'), '1');
    await page.close();
    await browser.close();
    assert.equal(lines(b.proc, 'DevTools client relayed to the instance holding the browser'), 1);
    assert.equal(lines(a.proc, 'DevTools connection from another instance'), 1);
    assert.equal(await upgradeStatus(via(wsEndpoint, b.proc.baseUrl)), 401, 'the token was spent, on B');
    assert.equal(await upgradeStatus(wsEndpoint), 401, 'and on A');

    const raw = await connectRawCdp(`${b.proc.baseUrl.replace('http:', 'ws:')}/api/browser/sessions/${sessionId}/devtools`, { 'x-api-key': apiKey });
    const version = await raw.send('Browser.getVersion');
    assert.match(version.result?.product ?? '', /Chrome/);
    for (const method of ['Browser.close', 'SystemInfo.getProcessInfo']) {
      const refused = await raw.send(method);
      assert.match(refused.error?.message ?? '', new RegExp(`^taskloom's DevTools relay refused ${method.replace('.', '\\.')}`), method);
    }
    const file = await raw.openPage();
    const nav = await raw.send('Page.navigate', { url: 'file:///etc/passwd' }, file.sessionId);
    assert.match(nav.error?.message ?? '', /refused Page\.navigate: scheme file is not allowed/);
    await raw.close();
    assert.equal(lines(a.proc, 'DevTools method refused'), 3, 'refused by the holder');
    assert.equal(lines(b.proc, 'DevTools method refused'), 0, 'and by nobody else: judged once');
    assert.match((await open(a)).sessionId, new RegExp(`^${sessionId}$`), 'the browser lives on after its clients left');
  });

  it('a token made on A opens one connection on B; peers\' own requests cannot be forged', async () => {
    const { sessionId, wsEndpoint } = await open(a);
    assert.equal(await upgradeStatus(via(wsEndpoint, b.proc.baseUrl)), 101);
    assert.equal(await upgradeStatus(wsEndpoint), 401, 'spent for every instance');
    const { wsEndpoint: other } = await open(a);
    assert.equal(await upgradeStatus(via(other, b.proc.baseUrl).replace(sessionId, 'bs_another')), 401, 'signed for its own session only');
    const base = `${a.proc.baseUrl.replace('http:', 'ws:')}/api/browser/sessions/${sessionId}`;
    assert.equal(await upgradeStatus(`${base}/devtools`, { 'x-taskloom-peer': 'e30.AAAA' }), 401, 'a made-up peer header');
    assert.equal(await upgradeStatus(`${base}/close`, { 'x-api-key': apiKey }), 404, 'close is no client endpoint');
    assert.equal((await open(a)).sessionId, sessionId, 'nothing closed it');
  });

  it('closes the browser on A through B, with its id and, as the only session, without', async () => {
    const { sessionId } = await open(a);
    const closed = await b.call('POST', '/api/browser/close', { body: { sessionId } });
    assert.deepEqual([closed.status, closed.body], [200, { success: true }], closed.text);
    assert.equal((await a.call('POST', '/api/browser/close', { body: { sessionId } })).status, 404, 'gone from A');
    assert.equal(await upgradeStatus(`${b.proc.baseUrl.replace('http:', 'ws:')}/api/browser/sessions/${sessionId}/devtools`, { 'x-api-key': apiKey }), 404);
    const again = await open(a);
    assert.notEqual(again.sessionId, sessionId);
    const withoutId = await b.call('POST', '/api/browser/close');
    assert.equal(withoutId.status, 200, withoutId.text);
    const none = await a.call('POST', '/api/browser/close');
    assert.deepEqual([none.status, none.body.error], [404, 'NOT_FOUND'], 'A holds none any more');
  });

  it('behind a round-robin load balancer: opened, driven over several connections and closed, wherever each lands', async () => {
    lb = await startRoundRobin([a.proc.baseUrl, b.proc.baseUrl]);
    const { sessionId, wsEndpoint } = await open(lb.baseUrl);
    assert.equal(new URL(wsEndpoint).host, new URL(lb.baseUrl).host, 'the wsEndpoint names the balancer the caller used');
    const relayed = `${lb.baseUrl.replace('http:', 'ws:')}/api/browser/sessions/${sessionId}/devtools`;
    for (let i = 0; i < 4; i++) {
      const browser = await playwright.connectOverCDP(relayed, { headers: { 'x-api-key': apiKey } });
      const page = await browser.contexts()[0]!.newPage();
      await page.goto(`${pages.origin}/second.html`);
      assert.match(await page.title(), /\S/);
      await page.close();
      await browser.close();
    }
    const [toA, toB] = lb.counts();
    assert.ok(toA! >= 2 && toB! >= 2, `connections reached both instances: ${lb.counts()}`);
    const closed = await request(lb.baseUrl, 'POST', '/api/browser/close', { apiKey, body: { sessionId } });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(await upgradeStatus(relayed, { 'x-api-key': apiKey }), 404);
  });

  it('20 wrong logins for one account from one address, spread over A and B: ten get 401, then 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await (i % 2 === 0 ? a : b).call('POST', '/api/auth/login', { apiKey: undefined, body: { email: ADMIN.email, password: `guess ${i}` } });
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(401), ...Array(10).fill(429)]);
    const burst = await Promise.all(Array.from({ length: 16 }, (_, i) =>
      (i % 2 ? a : b).call('POST', '/api/auth/login', { apiKey: undefined, body: { email: 'nobody@example.com', password: `burst ${i}` } })));
    assert.deepEqual(burst.map((r) => r.status).sort(), [...Array(10).fill(401), ...Array(6).fill(429)], 'a parallel burst over both');
  });
});
