import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { BrowserCookie } from '../../kernel/contracts/browser.js';
import { COOKIE_JAR_KEY } from '../../plugins/data/index.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const MASK = '********';
const FUTURE = Math.floor(Date.UTC(2030, 0, 1) / 1000);

const jar: BrowserCookie[] = [
  { name: 'sid', value: 'secret-value-one-4f1c', domain: 'example.com', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'Lax' },
  { name: 'pref', value: 'secret-value-two-9b2e', domain: '.example.com', path: '/', expires: FUTURE },
  { name: 'cart', value: 'secret-value-three-c0d3', domain: 'shop.example.com', path: '/cart', expires: FUTURE, sameSite: 'None', secure: true },
  { name: 'a', value: 'secret-value-four-77aa', domain: '.Other.org', path: '/', expires: -1 },
  { name: 'b', value: 'x', domain: 'other.org', path: '/app', expires: FUTURE, httpOnly: false },
];

let svc: TestService, apiKey: string, cookie: string;
const settings = () => svc.service.services.storage.settings;
const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
const stored = async () => (await settings().get<BrowserCookie[]>(COOKIE_JAR_KEY)) ?? [];
const keys = (cookies: BrowserCookie[]) => cookies.map((c) => `${c.name}@${c.domain}`).sort();

before(async () => {
  svc = await startService();
  ({ apiKey, cookie } = await setupAdmin(svc));
});
after(() => svc.close());
beforeEach(() => settings().set(COOKIE_JAR_KEY, jar));

describe('data: browser cookies', () => {
  it('uses the cookie jar key of the browser layer', () => {
    assert.equal(COOKIE_JAR_KEY, 'browser.cookies');
  });

  it('lists name, domain, path, expires and flags, with every value masked', async () => {
    const res = await svc.request('GET', '/api/data/cookies', { cookie });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['cookies']);
    assert.equal(res.body.cookies.length, jar.length);
    for (const c of jar) {
      if (c.value.length > 1) assert.ok(!res.text.includes(c.value), `the value of ${c.name} leaked`);
      const shown = res.body.cookies.find((s: BrowserCookie) => s.name === c.name && s.domain === c.domain);
      const { value, ...rest } = c;
      assert.deepEqual(shown, { ...rest, value: MASK }, c.name);
    }
    assert.ok(!/secret-value/.test(res.text));
    // Ordered by domain (leading dot ignored), then path, then name.
    assert.deepEqual(res.body.cookies.map((c: BrowserCookie) => `${c.domain}${c.path}${c.name}`), [
      '.example.com/pref', 'example.com/sid', '.Other.org/a', 'other.org/appb', 'shop.example.com/cartcart',
    ]);
  });

  it('lists an empty or unset jar as no cookies', async () => {
    await settings().delete(COOKIE_JAR_KEY);
    assert.deepEqual((await api('GET', '/api/data/cookies')).body, { cookies: [] });
    assert.deepEqual((await api('DELETE', '/api/data/cookies')).body, { success: true, deleted: 0 });
    assert.deepEqual((await api('GET', '/api/data/cookies')).body, { cookies: [] });
  });

  it('deletes one domain\'s cookies, with or without a leading dot, in any case; subdomains keep theirs', async () => {
    const res = await api('DELETE', '/api/data/cookies/example.com');
    assert.deepEqual([res.status, res.body], [200, { success: true, deleted: 2 }]);
    assert.deepEqual(keys(await stored()), ['a@.Other.org', 'b@other.org', 'cart@shop.example.com']);
    assert.deepEqual((await api('DELETE', '/api/data/cookies/.OTHER.org')).body, { success: true, deleted: 2 });
    assert.deepEqual(keys(await stored()), ['cart@shop.example.com']);
    assert.deepEqual((await api('DELETE', '/api/data/cookies/nowhere.test')).body, { success: true, deleted: 0 });
    assert.deepEqual((await api('DELETE', '/api/data/cookies/shop.example.com')).body, { success: true, deleted: 1 });
    assert.deepEqual(await stored(), []);
  });

  it('deletes every cookie', async () => {
    const res = await svc.request('DELETE', '/api/data/cookies', { cookie });
    assert.deepEqual([res.status, res.body], [200, { success: true, deleted: jar.length }]);
    assert.deepEqual(await stored(), []);
    assert.deepEqual((await api('GET', '/api/data/cookies')).body, { cookies: [] });
  });

  it('loses no deletion when requests overlap', async () => {
    const results = await Promise.all([
      api('DELETE', '/api/data/cookies/example.com'), api('DELETE', '/api/data/cookies/other.org'),
      api('DELETE', '/api/data/cookies/shop.example.com'),
    ]);
    assert.deepEqual(results.map((r) => r.body.deleted), [2, 2, 1]);
    assert.deepEqual(await stored(), []);
  });

  it('answers 401 to an anonymous caller and changes nothing', async () => {
    for (const [method, url] of [['GET', '/api/data/cookies'], ['DELETE', '/api/data/cookies'], ['DELETE', '/api/data/cookies/example.com']] as const) {
      const res = await svc.request(method, url);
      assert.deepEqual([res.status, res.body.error], [401, 'UNAUTHORIZED'], `${method} ${url}`);
      assert.ok(!res.text.includes('secret-value'));
    }
    assert.deepEqual(await stored(), jar);
  });
});
