// POST /api/browser/open and /close on the real service with real Chromium and no display: the headless
// fallback, Playwright and Puppeteer driving the browser through the relayed DevTools endpoint, the
// credentials the relay demands, runs in the session sharing its window's cookies, unknown sessions.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium as playwright } from 'playwright';
import puppeteer from 'puppeteer';
import WebSocket from 'ws';
import { TaskloomError } from '../../kernel/errors.js';
import { RelayTokens } from '../../plugins/browser-sessions/relay-tokens.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

/** The HTTP status a WebSocket upgrade to `url` gets: 101 when it opens. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (request, response) => {
      resolve(response.statusCode ?? 0);
      request.destroy();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', () => undefined);
  });
}

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
const alive = (pid: number) => existsSync(`/proc/${pid}`);

describe('relay tokens', () => {
  it('work once, for their own session, until they expire', () => {
    let now = 1000;
    const tokens = new RelayTokens(60_000, () => now);
    const a = tokens.issue('bs_a');
    assert.equal(tokens.consume(a, 'bs_b'), false, 'another session');
    assert.equal(tokens.consume(a, 'bs_a'), false, 'presenting it for the wrong session spent it');
    const b = tokens.issue('bs_a');
    assert.equal(tokens.consume(b, 'bs_a'), true);
    assert.equal(tokens.consume(b, 'bs_a'), false, 'used');
    const c = tokens.issue('bs_a');
    now += 60_001;
    assert.equal(tokens.consume(c, 'bs_a'), false, 'expired');
    const d = tokens.issue('bs_a');
    tokens.revoke('bs_a');
    assert.equal(tokens.consume(d, 'bs_a'), false, 'revoked with its session');
  });
});

describe('POST /api/browser/open and the DevTools relay', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let cookie: string;
  let sessionId: string;
  const display = process.env.DISPLAY;
  const open = (body?: unknown) => svc.request('POST', '/api/browser/open', { apiKey, body });
  const relayUrl = (id: string) => `${svc.baseUrl.replace('http:', 'ws:')}/api/browser/sessions/${id}/devtools`;

  before(async () => {
    delete process.env.DISPLAY; // no display: a headful start must fail here
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_EXECUTABLE_PATH: chromium.path! });
    ({ apiKey, cookie } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
    if (display !== undefined) process.env.DISPLAY = display;
  });

  it('answers 401 to anonymous callers', async () => {
    for (const [method, url] of [['POST', '/api/browser/open'], ['POST', '/api/browser/close'], ['GET', '/api/headful/status'],
      ['GET', '/api/headful/vnc-password'], ['POST', '/api/inspector/highlight']] as const) {
      const res = await svc.request(method, url, method === 'POST' ? { body: {} } : {});
      assert.equal(res.status, 401, `${method} ${url}`);
      assert.equal(res.body.error, 'UNAUTHORIZED');
    }
  });

  it('falls back to headless when the headful start fails, and answers { sessionId, wsEndpoint, headless }', async () => {
    const res = await open();
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['headless', 'sessionId', 'wsEndpoint']);
    assert.equal(res.body.headless, true);
    sessionId = res.body.sessionId;
    assert.match(sessionId, /^bs_[A-Za-z0-9_-]+$/);
    const port = new URL(svc.baseUrl).port;
    assert.match(res.body.wsEndpoint, new RegExp(`^ws://127\\.0\\.0\\.1:${port}/api/browser/sessions/${sessionId}/devtools\\?token=[A-Za-z0-9_-]{40,}$`));
    const session = svc.service.app.browserSessions.get(sessionId);
    assert.ok(cmdline(session.pid!).includes('--headless'));
  });

  it('keeps the browser\'s own debugging port on loopback', () => {
    const session = svc.service.app.browserSessions.get(sessionId);
    assert.match(session.cdpEndpoint()!, /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
    assert.ok(cmdline(session.pid!).includes('--remote-debugging-address=127.0.0.1'));
  });

  it('lets Playwright connectOverCDP drive the browser, once per token', async () => {
    const { wsEndpoint } = (await open()).body;
    const browser = await playwright.connectOverCDP(wsEndpoint);
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    await page.goto(`${pages.origin}/`);
    assert.equal(await page.title(), 'Fixture home');
    await page.click('#increment');
    assert.equal(await page.textContent('#count'), '1');
    await page.close();
    await browser.close(); // disconnects; the session's browser stays
    await assert.rejects(playwright.connectOverCDP(wsEndpoint), /401/);
    assert.equal(svc.service.app.browserSessions.get(sessionId).id, sessionId);
  });

  it('reuses the open browser and lets Puppeteer connect to it', async () => {
    const res = await open({ headless: false });
    assert.equal(res.body.sessionId, sessionId, 'the same session');
    const browser = await puppeteer.connect({ browserWSEndpoint: res.body.wsEndpoint });
    const page = await browser.newPage();
    await page.goto(`${pages.origin}/second.html`);
    assert.match(await page.title(), /\S/);
    await page.close();
    await browser.disconnect();
    assert.equal(await upgradeStatus(res.body.wsEndpoint), 401, 'the token was used');
  });

  it('accepts the API key header or a session cookie instead of a token', async () => {
    const browser = await playwright.connectOverCDP(relayUrl(sessionId), { headers: { 'x-api-key': apiKey } });
    assert.ok(browser.contexts().length >= 1);
    await browser.close();
    const viaCookie = await puppeteer.connect({ browserWSEndpoint: relayUrl(sessionId), headers: { cookie } });
    assert.ok((await viaCookie.pages()).length >= 1);
    await viaCookie.disconnect();
  });

  it('refuses a connection without credentials, with a wrong key or token, or a cookie sent by another site', async () => {
    assert.equal(await upgradeStatus(relayUrl(sessionId)), 401);
    assert.equal(await upgradeStatus(relayUrl(sessionId), { 'x-api-key': 'wrong' }), 401);
    assert.equal(await upgradeStatus(`${relayUrl(sessionId)}?token=made-up`), 401);
    assert.equal(await upgradeStatus(relayUrl(sessionId), { cookie, origin: 'https://evil.example' }), 403);
    assert.equal(await upgradeStatus(`${svc.baseUrl.replace('http:', 'ws:')}/api/elsewhere`, { 'x-api-key': apiKey }), 404);
  });

  it('runs a context in the session with the cookies of its window, and writes the run\'s back', async () => {
    const browser = await playwright.connectOverCDP(relayUrl(sessionId), { headers: { 'x-api-key': apiKey } });
    const window = browser.contexts()[0]!;
    await window.addCookies([{ name: 'login', value: 'by-hand', url: pages.origin }]);
    const session = svc.service.app.browserSessions.get(sessionId);
    const outcome = await session.withContext({ keepCookies: true }, async (context) => {
      const page = await context.newPage();
      await page.goto(`${pages.origin}/echo-cookies`, 10_000);
      const seen = await page.content();
      await page.goto(`${pages.origin}/set-cookie?name=fromRun&value=1`, 10_000);
      return seen;
    }, { timeoutMs: 20_000 });
    assert.equal(outcome.status, 'ok', outcome.status === 'ok' ? '' : outcome.error.message);
    assert.match(outcome.status === 'ok' ? outcome.value : '', /login=by-hand/);
    const names = (await window.cookies(pages.origin)).map((c) => c.name).sort();
    assert.deepEqual(names, ['fromRun', 'login']);
    await browser.close();
  });

  it('answers 404 for an unknown session everywhere', async () => {
    assert.throws(() => svc.service.app.browserSessions.get('bs_unknown'), (error: unknown) =>
      error instanceof TaskloomError && error.statusCode === 404);
    const close = await svc.request('POST', '/api/browser/close', { apiKey, body: { sessionId: 'bs_unknown' } });
    assert.equal(close.status, 404);
    assert.equal(await upgradeStatus(relayUrl('bs_unknown'), { 'x-api-key': apiKey }), 404);
  });

  it('closes the session: its browser ends and the id is unknown afterwards', async () => {
    const pid = svc.service.app.browserSessions.get(sessionId).pid!;
    const res = await svc.request('POST', '/api/browser/close', { cookie, body: { sessionId } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true });
    assert.equal(alive(pid), false);
    assert.equal((await svc.request('POST', '/api/browser/close', { apiKey, body: { sessionId } })).status, 404);
    assert.equal(await upgradeStatus(relayUrl(sessionId), { 'x-api-key': apiKey }), 404);
  });

  it('starts headless at once with headless: true, and takes the API key from the body too', async () => {
    const res = await svc.request('POST', '/api/browser/open', { body: { headless: true, apiKey } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.headless, true);
    assert.notEqual(res.body.sessionId, sessionId, 'a new session');
    const bad = await open({ headless: 'yes' });
    assert.equal(bad.status, 400);
  });
});
