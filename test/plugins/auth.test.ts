import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, sessionCookie, setupAdmin, startService, type TestService } from '../support/service.js';

describe('auth: first-time setup', () => {
  let svc: TestService;
  before(async () => { svc = await startService(); });
  after(async () => { await svc.close(); });

  it('reports setup required and refuses protected endpoints with SETUP_REQUIRED', async () => {
    const check = await svc.request('GET', '/api/auth/check-setup');
    assert.deepEqual([check.status, check.body], [200, { setupRequired: true }]);
    const tasks = await svc.request('GET', '/api/tasks');
    assert.equal(tasks.status, 401);
    assert.equal(tasks.body.error, 'SETUP_REQUIRED');
  });

  it('rejects a setup body with a bad email, a short password or a missing name', async () => {
    for (const body of [
      { ...ADMIN, email: 'not-an-email' },
      { ...ADMIN, password: 'short' },
      { email: ADMIN.email, password: ADMIN.password },
    ]) {
      const res = await svc.request('POST', '/api/auth/setup', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'VALIDATION_ERROR');
      assert.match(res.body.details, /email|password|name/);
    }
  });

  it('creates the admin once, logs them in, and answers 409 ALREADY_INITIALIZED after', async () => {
    const setup = await svc.request('POST', '/api/auth/setup', { body: ADMIN });
    assert.deepEqual([setup.status, setup.body], [200, { success: true }]);
    assert.ok(sessionCookie(setup.headers));
    assert.deepEqual((await svc.request('GET', '/api/auth/check-setup')).body, { setupRequired: false });
    const again = await svc.request('POST', '/api/auth/setup', { body: { ...ADMIN, email: 'eve@example.com' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'ALREADY_INITIALIZED');
  });
});

describe('auth: sessions', () => {
  let svc: TestService;
  before(async () => { svc = await startService(); await setupAdmin(svc); });
  after(async () => { await svc.close(); });

  it('refuses a wrong password and an unknown email alike with INVALID_CREDENTIALS', async () => {
    for (const body of [{ email: ADMIN.email, password: 'wrong password' }, { email: 'nobody@example.com', password: 'x' }]) {
      const res = await svc.request('POST', '/api/auth/login', { body });
      assert.equal(res.status, 401);
      assert.deepEqual(Object.keys(res.body).sort(), ['details', 'error', 'requestId']);
      assert.equal(res.body.error, 'INVALID_CREDENTIALS');
    }
  });

  it('sets an HttpOnly, SameSite=Lax, Path=/ cookie (not Secure over plain HTTP) on login', async () => {
    const res = await svc.request('POST', '/api/auth/login', { body: { email: ADMIN.email.toUpperCase(), password: ADMIN.password } });
    assert.deepEqual([res.status, res.body], [200, { success: true }]);
    const raw = res.headers.getSetCookie().find((c) => c.startsWith('taskloom_session='))!;
    assert.match(raw, /HttpOnly/i);
    assert.match(raw, /SameSite=Lax/i);
    assert.match(raw, /Path=\//);
    assert.match(raw, /Expires=/);
    assert.doesNotMatch(raw, /Secure/i);
  });

  it('answers me with the user (no password hash) only for a session', async () => {
    const login = await svc.request('POST', '/api/auth/login', { body: ADMIN });
    const cookie = sessionCookie(login.headers);
    const me = await svc.request('GET', '/api/auth/me', { cookie });
    assert.equal(me.status, 200);
    assert.equal(me.body.user.email, ADMIN.email);
    assert.equal(me.body.user.name, ADMIN.name);
    assert.doesNotMatch(me.text, /scrypt|passwordHash|password/);
    assert.equal((await svc.request('GET', '/api/auth/me')).body.error, 'UNAUTHORIZED');
    const forged = await svc.request('GET', '/api/auth/me', { cookie: `${cookie}x` });
    assert.equal(forged.status, 401);
  });

  it('answers 403 FORBIDDEN to an API key on session-only endpoints', async () => {
    const { apiKey } = await svc.request('POST', '/api/settings/api-key', {
      cookie: sessionCookie((await svc.request('POST', '/api/auth/login', { body: ADMIN })).headers),
    }).then((r) => r.body);
    const me = await svc.request('GET', '/api/auth/me', { apiKey });
    assert.equal(me.status, 403);
    assert.equal(me.body.error, 'FORBIDDEN');
  });

  it('invalidates the session on logout', async () => {
    const cookie = sessionCookie((await svc.request('POST', '/api/auth/login', { body: ADMIN })).headers);
    const out = await svc.request('POST', '/api/auth/logout', { cookie });
    assert.deepEqual([out.status, out.body], [200, { success: true }]);
    assert.equal((await svc.request('GET', '/api/auth/me', { cookie })).status, 401);
    assert.equal((await svc.request('POST', '/api/auth/logout', { cookie })).status, 401);
  });
});

describe('auth: login rate limiting', () => {
  let svc: TestService;
  before(async () => { svc = await startService(); await setupAdmin(svc); });
  after(async () => { await svc.close(); });

  it('answers 429 RATE_LIMITED with Retry-After after 10 failures from one address, even to the right password', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await svc.request('POST', '/api/auth/login', { body: { email: ADMIN.email, password: `wrong-${i}` } });
      assert.equal(res.status, 401);
    }
    const limited = await svc.request('POST', '/api/auth/login', { body: ADMIN });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error, 'RATE_LIMITED');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
  });
});

describe('auth: sessions survive a restart', () => {
  it('accepts a cookie issued before the restart', async () => {
    const first = await startService();
    const { cookie } = await setupAdmin(first);
    await first.service.close();
    const second = await startService({}, first.dataDir);
    try {
      const me = await second.request('GET', '/api/auth/me', { cookie });
      assert.equal(me.status, 200);
      assert.equal(me.body.user.email, ADMIN.email);
    } finally {
      await second.close();
    }
  });
});

describe('auth: AUTH_DISABLED', () => {
  it('lets anonymous callers use protected endpoints', async () => {
    const svc = await startService({ AUTH_DISABLED: 'true' });
    try {
      const status = await svc.request('GET', '/api/settings/api-key');
      assert.deepEqual([status.status, status.body], [200, { configured: false, preview: null }]);
      const me = await svc.request('GET', '/api/auth/me');
      assert.equal(me.status, 200);
      assert.equal(me.body.user.id, 'local');
    } finally {
      await svc.close();
    }
  });
});
