// The Host check against DNS rebinding: a page at http://evil.example:<port>/, whose name the attacker points at
// 127.0.0.1 once loaded, is the same origin as its own requests, so neither cookies nor Origin checks stop it; with
// AUTH_DISABLED=true it could do anything. Chromium's --host-resolver-rules plays the rebinding resolver here.
// The service answers only Host names it knows (421 HOST_NOT_ALLOWED), on every route and the relay's upgrade.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { chromium as playwright, type Browser } from 'playwright';
import { createHostRule, parseHost } from '../../layers/allowed-hosts/host-rule.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { makeExecution } from '../../testing/storage/harness.js';
import { startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

/** A raw request with the Host header given (fetch will not send another Host). */
function withHost(baseUrl: string, path: string, host: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${path}`, { method, headers: { ...headers, host } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** The status a WebSocket upgrade with this Host gets (101 when it opens). */
function upgradeWithHost(baseUrl: string, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${path}`, {
      headers: { host, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
    });
    request.on('response', (response) => { resolve(response.statusCode ?? 0); response.resume(); });
    request.on('upgrade', (_response, socket) => { resolve(101); socket.destroy(); });
    request.on('error', reject);
    request.end();
  });
}

describe('Host names the service answers to', () => {
  it('parses Host headers strictly and always accepts IP literals and localhost names', () => {
    assert.deepEqual(parseHost('Example.COM:8080'), { hostname: 'example.com', port: 8080 });
    assert.deepEqual(parseHost('[::1]:11345'), { hostname: '::1', port: 11345 });
    assert.deepEqual(parseHost('taskloom.lan.'), { hostname: 'taskloom.lan', port: undefined });
    for (const bad of ['a b', 'evil.example:x', '[::1', 'exa/mple', 'h:99999', ':80', 'user@host']) assert.equal(parseHost(bad), undefined, bad);
    const rule = createHostRule({ host: '127.0.0.1', allowedHosts: ['taskloom.example.com', '*.corp.example'] });
    for (const ok of ['127.0.0.1', '::1', '10.1.2.3', 'localhost', 'app.localhost', 'taskloom.example.com', 'a.corp.example', 'a.b.corp.example']) {
      assert.ok(rule.allows(ok), ok);
    }
    for (const no of ['evil.example', 'corp.example', 'xcorp.example', 'taskloom.example.com.evil.example']) assert.ok(!rule.allows(no), no);
    assert.ok(rule.named('taskloom.example.com') && rule.named('127.0.0.1') && !rule.named('10.1.2.3'));
    assert.ok(createHostRule({ host: '127.0.0.1', allowedHosts: ['*'] }).allows('evil.example'));
    assert.ok(createHostRule({ host: 'box.lan', allowedHosts: [] }).named('box.lan'));
  });

  describe('over HTTP', () => {
    let svc: TestService;
    let listed: TestService;
    before(async () => {
      svc = await startService();
      listed = await startService({ ALLOWED_HOSTS: 'taskloom.example.com, *.corp.example', TRUST_PROXY: 'true' });
    });
    after(async () => {
      await svc?.close();
      await listed?.close();
    });

    it('refuses a foreign Host with 421 HOST_NOT_ALLOWED on API, public and unknown routes, naming ALLOWED_HOSTS', async () => {
      for (const path of ['/api/tasks', '/api/health', '/api/auth/check-setup', '/nowhere']) {
        const res = await withHost(svc.baseUrl, path, 'evil.example:11345');
        assert.equal(res.status, 421, path);
        assert.equal(res.body.error, 'HOST_NOT_ALLOWED');
        assert.match(res.body.details, /ALLOWED_HOSTS/);
      }
      for (const malformed of ['bad host', 'evil.example:x', '127.0.0.1@evil.example']) {
        assert.equal((await withHost(svc.baseUrl, '/api/health', malformed)).status, 421, malformed);
      }
    });

    it('accepts the listen address, localhost names and IP literals', async () => {
      const port = new URL(svc.baseUrl).port;
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', `[::1]:${port}`, '192.0.2.7', 'app.localhost']) {
        assert.equal((await withHost(svc.baseUrl, '/api/auth/check-setup', host)).status, 200, host);
      }
    });

    it('accepts the names in ALLOWED_HOSTS, and judges X-Forwarded-Host with TRUST_PROXY', async () => {
      for (const host of ['taskloom.example.com', 'taskloom.example.com:443', 'build.corp.example']) {
        assert.equal((await withHost(listed.baseUrl, '/api/health', host)).status, 200, host);
      }
      assert.equal((await withHost(listed.baseUrl, '/api/health', 'corp.example')).status, 421);
      const forwarded = (name: string) => withHost(listed.baseUrl, '/api/health', '127.0.0.1', { 'x-forwarded-host': name });
      assert.equal((await forwarded('evil.example')).status, 421);
      assert.equal((await forwarded('taskloom.example.com')).status, 200);
      // A rebinding page is same-origin, so it may add X-Forwarded-Host itself: every name must pass.
      const added = await withHost(listed.baseUrl, '/api/health', 'evil.example', { 'x-forwarded-host': 'taskloom.example.com' });
      assert.equal(added.status, 421);
      assert.equal((await forwarded('evil.example, taskloom.example.com')).status, 421);
    });

    it('refuses the DevTools relay upgrade under a foreign Host before anything else', async () => {
      const path = '/api/browser/sessions/bs_nope/devtools';
      assert.equal(await upgradeWithHost(svc.baseUrl, path, 'evil.example'), 421);
      assert.equal(await upgradeWithHost(svc.baseUrl, path, '127.0.0.1'), 401, 'a known Host goes on to the credentials');
    });
  });

  describe('a DNS-rebinding page in real Chromium, AUTH_DISABLED=true', { skip: chromium.skip }, () => {
    let svc: TestService;
    let browser: Browser;
    before(async () => {
      svc = await startService({ AUTH_DISABLED: 'true' });
      await svc.service.services.storage.executions.insert(makeExecution());
      // evil.example resolves to the service's address, as the attacker's DNS answers once the page has loaded.
      browser = await playwright.launch({ executablePath: chromium.path!, args: ['--host-resolver-rules=MAP evil.example 127.0.0.1'] });
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    it('neither reads nor writes through the rebound name; localhost still works', async () => {
      const port = new URL(svc.baseUrl).port;
      const page = await browser.newPage();
      const landing = await page.goto(`http://evil.example:${port}/api/health`);
      assert.equal(landing?.status(), 421);
      // Same origin as far as the browser knows: no CORS, no Sec-Fetch-Site refusal, only the Host tells.
      const answers = await page.evaluate(async () => Promise.all([
        fetch('/api/executions').then((r) => r.status),
        fetch('/api/executions/clear', { method: 'POST' }).then((r) => r.status),
      ]));
      assert.deepEqual(answers, [421, 421]);
      assert.equal(await svc.service.services.storage.executions.count(), 1, 'the history was cleared');
      const local = await page.goto(`http://localhost:${port}/api/health`);
      assert.equal(local?.status(), 200);
      await page.close();
    });
  });
});
