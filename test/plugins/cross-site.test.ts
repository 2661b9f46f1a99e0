// Cross-site requests, as the probe made them: a page on another port of 127.0.0.1 is the same *site* as the
// service, so SameSite=Lax sends the victim's session cookie along with its form posts and fetches; with
// AUTH_DISABLED=true no cookie is needed at all. In real Chromium, such a page tries to run a task, clear the
// history and open a DevTools WebSocket; each is refused with 403 FORBIDDEN, while the service's own pages, the API
// key and clients that are no browser (no Origin, no Sec-Fetch-Site) keep working.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { chromium as playwright, type Browser, type BrowserContext } from 'playwright';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { makeExecution } from '../../testing/storage/harness.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

/** The attacker's site: another port of 127.0.0.1, serving the given pages. */
async function startAttacker(pages: Record<string, string>): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    res.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'no such page');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A page that posts a form (text/plain: no preflight) to `action` as soon as it loads. */
const autoForm = (action: string) => `<title>win a prize</title>
<form method="post" enctype="text/plain" action="${action}"><input name="x" value="1"></form>
<script>document.forms[0].submit()</script>`;

/** A page that fetches `url` with POST and the browser's cookies (no-cors: the answer is opaque, the effect is not). */
const autoFetch = (url: string) => `<title>loading</title>
<script>fetch(${JSON.stringify(url)}, { method: 'POST', mode: 'no-cors', credentials: 'include' })
  .then(() => { document.title = 'sent'; }, (e) => { document.title = 'failed ' + e; });</script>`;

describe('cross-site requests in real Chromium', { skip: chromium.skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await playwright.launch({ executablePath: chromium.path! });
  });
  after(async () => { await browser?.close(); });

  describe('with the victim\'s session cookie, from a page on another port', () => {
    let svc: TestService;
    let attacker: Awaited<ReturnType<typeof startAttacker>>;
    let context: BrowserContext;
    let apiKey: string;
    let taskId: string;

    before(async () => {
      svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_EXECUTABLE_PATH: chromium.path! });
      const admin = await setupAdmin(svc);
      apiKey = admin.apiKey;
      const task = await svc.request('POST', '/api/tasks', {
        apiKey, body: { name: 'payroll export', url: 'http://127.0.0.1:9/', mode: 'scrape', actions: [] },
      });
      taskId = task.body.id;
      await svc.service.services.storage.executions.insert(makeExecution({ taskId, taskName: 'payroll export' }));
      attacker = await startAttacker({
        '/run.html': autoForm(`${svc.baseUrl}/api/tasks/${taskId}/api`),
        '/clear.html': autoFetch(`${svc.baseUrl}/api/executions/clear`),
        '/logout.html': autoFetch(`${svc.baseUrl}/api/auth/logout`),
      });
      context = await browser.newContext();
      const [name, value] = [admin.cookie.slice(0, admin.cookie.indexOf('=')), admin.cookie.slice(admin.cookie.indexOf('=') + 1)];
      await context.addCookies([{ name, value, url: svc.baseUrl, httpOnly: true, sameSite: 'Lax' }]);
    });
    after(async () => {
      await context?.close();
      await attacker?.close();
      await svc?.close();
    });

    const executions = () => svc.service.services.storage.executions.count({ taskId });

    it('an auto-submitted form does not run the task (403 FORBIDDEN)', async () => {
      const page = await context.newPage();
      const answer = page.waitForResponse((r) => r.url().includes(`/api/tasks/${taskId}/api`), { timeout: 60_000 });
      await page.goto(`${attacker.origin}/run.html`);
      const response = await answer;
      assert.equal(response.status(), 403, await response.text());
      const body = await response.json();
      assert.equal(body.error, 'FORBIDDEN');
      assert.match(body.details, /Cross-site request refused: the browser marked it same-site/);
      assert.equal(await executions(), 1, 'a run was started');
      await page.close();
    });

    it('a fetch with credentials does not clear the history, nor log the victim out', async () => {
      for (const path of ['/clear.html', '/logout.html']) {
        const page = await context.newPage();
        const answer = page.waitForResponse((r) => r.url().startsWith(svc.baseUrl), { timeout: 60_000 });
        await page.goto(`${attacker.origin}${path}`);
        assert.equal((await answer).status(), 403, path);
        await page.waitForFunction(() => document.title !== 'loading');
        await page.close();
      }
      assert.equal(await executions(), 1, 'the history was cleared');
      const cookie = (await context.cookies(svc.baseUrl)).map((c) => `${c.name}=${c.value}`).join('; ');
      assert.equal((await svc.request('GET', '/api/auth/me', { cookie })).status, 200, 'the session was ended');
    });

    it('the service\'s own pages still write with the cookie', async () => {
      const page = await context.newPage();
      await page.goto(`${svc.baseUrl}/api/health`);
      const status = await page.evaluate(async () => (await fetch('/api/settings/theme', {
        method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ theme: 'light' }),
      })).status);
      assert.equal(status, 200);
      await page.close();
    });

    it('the API key, and a client that is no browser, are not affected', async () => {
      const body = { theme: 'dark' };
      const withKey = await svc.request('POST', '/api/settings/theme', { apiKey, body, headers: { origin: attacker.origin, 'sec-fetch-site': 'same-site' } });
      assert.equal(withKey.status, 200, 'the key authenticates; no page can send it');
      const cookie = (await context.cookies(svc.baseUrl)).map((c) => `${c.name}=${c.value}`).join('; ');
      assert.equal((await svc.request('POST', '/api/settings/theme', { cookie, body })).status, 200, 'no Origin, no Sec-Fetch-Site');
      const forged = await svc.request('POST', '/api/settings/theme', { cookie, body, headers: { origin: attacker.origin } });
      assert.deepEqual([forged.status, forged.body.error], [403, 'FORBIDDEN'], 'an Origin of another port, without Sec-Fetch-Site');
      const login = await svc.request('POST', '/api/auth/login', { body: { email: 'a@b.c', password: 'x' }, headers: { 'sec-fetch-site': 'cross-site' } });
      assert.deepEqual([login.status, login.body.error], [403, 'FORBIDDEN'], 'a login from another site (login CSRF)');
    });
  });

  describe('with AUTH_DISABLED=true, from any page', () => {
    let svc: TestService;
    let attacker: Awaited<ReturnType<typeof startAttacker>>;

    before(async () => {
      svc = await startService({ AUTH_DISABLED: 'true' });
      await svc.service.services.storage.executions.insert(makeExecution());
      attacker = await startAttacker({
        '/clear.html': autoFetch(`${svc.baseUrl}/api/executions/clear`),
        '/devtools.html': `<title>loading</title><script>
          const socket = new WebSocket(${JSON.stringify(`${svc.baseUrl.replace('http:', 'ws:')}/api/browser/sessions/bs_guess/devtools`)});
          socket.onopen = () => { document.title = 'open'; };
          socket.onerror = () => { document.title = 'refused'; };</script>`,
      });
    });
    after(async () => {
      await attacker?.close();
      await svc?.close();
    });

    it('a page of another port cannot clear the history', async () => {
      const page = await browser.newPage();
      const answer = page.waitForResponse((r) => r.url().startsWith(svc.baseUrl), { timeout: 60_000 });
      await page.goto(`${attacker.origin}/clear.html`);
      assert.equal((await answer).status(), 403);
      await page.waitForFunction(() => document.title !== 'loading');
      assert.equal(await svc.service.services.storage.executions.count(), 1, 'the history was cleared');
      await page.close();
    });

    it('a page of another port cannot open the DevTools relay (403, before the session is even looked up)', async () => {
      const page = await browser.newPage();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      // Chromium reports a refused handshake as a frame error naming the status.
      const handshake = new Promise<string>((resolve) => {
        cdp.on('Network.webSocketHandshakeResponseReceived', (event) => resolve(`answered ${event.response.status}`));
        cdp.on('Network.webSocketFrameError', (event) => resolve(event.errorMessage));
      });
      await page.goto(`${attacker.origin}/devtools.html`);
      await page.waitForFunction(() => document.title !== 'loading');
      assert.equal(await page.title(), 'refused');
      assert.match(await handshake, /Unexpected response code: 403$/, 'an unknown session is 404 once the caller is let in');
      await page.close();
    });

    it('the service\'s own pages still work', async () => {
      const page = await browser.newPage();
      await page.goto(`${svc.baseUrl}/api/health`);
      const status = await page.evaluate(async () => (await fetch('/api/executions/clear', { method: 'POST' })).status);
      assert.equal(status, 200);
      assert.equal(await svc.service.services.storage.executions.count(), 0);
      await page.close();
    });
  });
});
