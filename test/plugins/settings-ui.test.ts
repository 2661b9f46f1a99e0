import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

let svc: TestService;
let apiKey: string;
let dataDir: string;

/** A fresh service on its own store (tests of "nothing stored yet" need one each). */
async function fresh(): Promise<{ svc: TestService; apiKey: string }> {
  const service = await startService();
  return { svc: service, apiKey: (await setupAdmin(service)).apiKey };
}
const call = (s: TestService, key: string, method: string, url: string, options: RequestOptions = {}) =>
  s.request(method, `/api/settings${url}`, { apiKey: key, ...options });
const api = (method: string, url: string, options: RequestOptions = {}) => call(svc, apiKey, method, url, options);

before(async () => {
  dataDir = await makeTempDir();
  svc = await startService({}, dataDir);
  ({ apiKey } = await setupAdmin(svc));
});
after(async () => { await svc.close(); });

describe('settings: selector finder', () => {
  it('answers highlight by default, saves ai and answers { selectorFinder }', async () => {
    assert.deepEqual((await api('GET', '/selector-finder')).body, { selectorFinder: 'highlight' });
    const saved = await api('POST', '/selector-finder', { body: { selectorFinder: 'ai' } });
    assert.deepEqual([saved.status, saved.body], [200, { selectorFinder: 'ai' }]);
    assert.deepEqual((await api('GET', '/selector-finder')).body, { selectorFinder: 'ai' });
    await api('POST', '/selector-finder', { body: { selectorFinder: 'highlight' } });
    assert.deepEqual((await api('GET', '/selector-finder')).body, { selectorFinder: 'highlight' });
  });

  it('refuses any other value with 400 VALIDATION_ERROR and keeps the stored one', async () => {
    for (const body of [{ selectorFinder: 'xpath' }, { selectorFinder: 1 }, {}, { selectorFinder: 'ai', other: true }]) {
      const res = await api('POST', '/selector-finder', { body });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(body));
    }
    assert.deepEqual((await api('GET', '/selector-finder')).body, { selectorFinder: 'highlight' });
  });
});

describe('settings: theme', () => {
  it('answers dark when nothing is stored and no cookie is sent, without storing it', async () => {
    const { svc: s, apiKey: key } = await fresh();
    try {
      assert.deepEqual((await call(s, key, 'GET', '/theme')).body, { theme: 'dark' });
      const withCookie = await call(s, key, 'GET', '/theme', { headers: { cookie: 'theme=light' } });
      assert.deepEqual(withCookie.body, { theme: 'light' }, 'dark was not stored, so the cookie still counts');
    } finally {
      await s.close();
    }
  });

  // The spec has GET save a cookie's theme; here a GET writes nothing (README: deviations), so any page that
  // makes the browser fetch /api/settings/theme cannot change what is stored.
  it('answers a valid service_theme cookie when nothing is stored, and stores nothing', async () => {
    const { svc: s, apiKey: key } = await fresh();
    try {
      const first = await call(s, key, 'GET', '/theme', { headers: { cookie: 'service_theme=solarized-light; theme=light' } });
      assert.deepEqual([first.status, first.body], [200, { theme: 'solarized-light' }]);
      assert.equal(await s.service.services.storage.settings.get('settings.theme'), undefined, 'the GET stored the theme');
      const later = await call(s, key, 'GET', '/theme', { headers: { cookie: 'service_theme=light' } });
      assert.deepEqual(later.body, { theme: 'light' }, 'nothing was stored, so the later cookie counts');
      assert.deepEqual((await call(s, key, 'GET', '/theme')).body, { theme: 'dark' });
      await call(s, key, 'POST', '/theme', { body: { theme: 'solarized-dark' } });
      assert.deepEqual((await call(s, key, 'GET', '/theme', { headers: { cookie: 'service_theme=light' } })).body,
        { theme: 'solarized-dark' }, 'a stored theme wins over the cookie');
    } finally {
      await s.close();
    }
  });

  it('falls back to the theme cookie when service_theme is not a valid theme, storing nothing', async () => {
    const { svc: s, apiKey: key } = await fresh();
    try {
      const res = await call(s, key, 'GET', '/theme', { headers: { cookie: 'service_theme=neon; theme=solarized-dark' } });
      assert.deepEqual(res.body, { theme: 'solarized-dark' });
      assert.equal(await s.service.services.storage.settings.get('settings.theme'), undefined);
      assert.deepEqual((await call(s, key, 'GET', '/theme')).body, { theme: 'dark' });
    } finally {
      await s.close();
    }
  });

  it('answers dark, storing nothing, when neither cookie holds a valid theme', async () => {
    const { svc: s, apiKey: key } = await fresh();
    try {
      assert.deepEqual((await call(s, key, 'GET', '/theme', { headers: { cookie: 'service_theme=neon; theme=blue' } })).body, { theme: 'dark' });
      assert.deepEqual((await call(s, key, 'GET', '/theme', { headers: { cookie: 'theme=light' } })).body, { theme: 'light' });
    } finally {
      await s.close();
    }
  });

  it('saves a theme, answers { theme } and sets the service_theme cookie for a year', async () => {
    const res = await api('POST', '/theme', { body: { theme: 'light' } });
    assert.deepEqual([res.status, res.body], [200, { theme: 'light' }]);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('service_theme='));
    assert.ok(cookie, 'a service_theme cookie is set');
    const attributes = cookie.split(';').map((part) => part.trim());
    assert.equal(attributes[0], 'service_theme=light');
    assert.ok(attributes.includes('Path=/'), cookie);
    assert.ok(attributes.includes('SameSite=Lax'), cookie);
    assert.ok(attributes.includes('Max-Age=31536000'), cookie);
    assert.ok(!attributes.includes('Secure'), 'plain HTTP: not Secure');
    assert.deepEqual((await api('GET', '/theme', { headers: { cookie: 'service_theme=dark' } })).body, { theme: 'light' });
  });

  it('coerces a value outside the four themes to dark, silently', async () => {
    for (const theme of ['solarized-dark', 'neon', '', 'LIGHT']) {
      const res = await api('POST', '/theme', { body: { theme } });
      const expected = theme === 'solarized-dark' ? theme : 'dark';
      assert.deepEqual([res.status, res.body], [200, { theme: expected }], theme);
      assert.ok(res.headers.getSetCookie().some((c) => c.startsWith(`service_theme=${expected};`)));
      assert.deepEqual((await api('GET', '/theme')).body, { theme: expected });
    }
  });

  it('refuses a missing or non-string theme with 400 VALIDATION_ERROR', async () => {
    await api('POST', '/theme', { body: { theme: 'solarized-light' } });
    for (const body of [{}, { theme: 3 }, { theme: null }, { theme: ['light'] }]) {
      const res = await api('POST', '/theme', { body });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(body));
      assert.equal(res.headers.getSetCookie().length, 0);
    }
    assert.deepEqual((await api('GET', '/theme')).body, { theme: 'solarized-light' });
  });

  it('keeps the theme and the selector finder across a restart', async () => {
    await api('POST', '/theme', { body: { theme: 'solarized-dark' } });
    await api('POST', '/selector-finder', { body: { selectorFinder: 'ai' } });
    await svc.close();
    svc = await startService({}, dataDir);
    assert.deepEqual((await api('GET', '/theme')).body, { theme: 'solarized-dark' });
    assert.deepEqual((await api('GET', '/selector-finder')).body, { selectorFinder: 'ai' });
  });
});

describe('settings: preferences need authentication', () => {
  it('answers 401 to anonymous callers and a wrong key, and accepts the session cookie', async () => {
    const s = await startService();
    try {
      const { cookie } = await setupAdmin(s);
      for (const [method, url] of [['GET', '/theme'], ['POST', '/theme'], ['GET', '/selector-finder'], ['POST', '/selector-finder']] as const) {
        const body = method === 'POST' ? { theme: 'light', selectorFinder: 'ai' } : undefined;
        const anonymous = await s.request(method, `/api/settings${url}`, { body, headers: { cookie: 'service_theme=light' } });
        assert.deepEqual([anonymous.status, anonymous.body.error], [401, 'UNAUTHORIZED'], `${method} ${url}`);
        const wrongKey = await s.request(method, `/api/settings${url}`, { body, apiKey: 'not-the-key' });
        assert.deepEqual([wrongKey.status, wrongKey.body.error], [401, 'UNAUTHORIZED'], `${method} ${url}`);
      }
      const viaSession = await s.request('GET', '/api/settings/theme', { cookie });
      assert.deepEqual([viaSession.status, viaSession.body], [200, { theme: 'dark' }], 'the anonymous cookie was not stored');
    } finally {
      await s.close();
    }
  });
});
