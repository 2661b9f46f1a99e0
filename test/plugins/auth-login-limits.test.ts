// Login limits: an address that keeps failing is refused (429), per account and over all accounts, but the
// account itself is never closed: whoever knows the admin's e-mail cannot keep the admin out. Addresses
// come from X-Forwarded-For (TRUST_PROXY=true).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOGIN_LIMITS, LoginGuard } from '../../plugins/auth/login-guard.js';
import { ADMIN, sessionCookie, setupAdmin, startService, type TestService } from '../support/service.js';

describe('login guard (counting, without HTTP)', () => {
  it('slows an account down from its 10th failure, doubling up to 8 s, and forgets after 15 minutes', () => {
    let now = 0;
    const guard = new LoginGuard(LOGIN_LIMITS, () => now);
    assert.deepEqual([0, 9, 10, 11, 12, 13, 14, 500].map((n) => guard.delayFor(n)), [0, 0, 1000, 2000, 4000, 8000, 8000, 8000]);
    const delays: number[] = [];
    for (let i = 0; i < 12; i++) {
      const attempt = guard.attempt('ada@example.com', `10.0.0.${i}`);
      assert.ok('delayMs' in attempt);
      delays.push(attempt.delayMs);
    }
    assert.deepEqual(delays, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1000, 2000]);
    now += 15 * 60 * 1000 + 1;
    const later = guard.attempt('ada@example.com', '10.0.0.99');
    assert.ok('delayMs' in later && later.delayMs === 0);
  });

  it('counts an attempt when it starts, so attempts in parallel cannot all pass; a success or a withdrawn one does not count', () => {
    const guard = new LoginGuard();
    const started = Array.from({ length: 12 }, () => guard.attempt('ada@example.com', 'A'));
    assert.equal(started.filter((a) => 'delayMs' in a).length, 10);
    assert.ok('retryAfterSeconds' in started[10]! && started[10].retryAfterSeconds > 0);
    const b = guard.attempt('ada@example.com', 'B');
    assert.ok('delayMs' in b);
    b.succeeded();
    const c = guard.attempt('ada@example.com', 'C');
    assert.ok('delayMs' in c);
    assert.equal(c.delayMs, 1000, 'the success at B took nothing from the 10 failures from A');
    c.withdraw();
    const d = guard.attempt('ada@example.com', 'D');
    assert.ok('delayMs' in d && d.delayMs === 1000, 'the withdrawn attempt at C did not count');
  });
});

describe('auth: login limits over HTTP', () => {
  let svc: TestService;
  const login = (address: string, body: { email: string; password: string }) =>
    svc.request('POST', '/api/auth/login', { body, headers: { 'x-forwarded-for': address } });
  const wrong = (address: string, email = ADMIN.email) => login(address, { email, password: 'not the password' });

  before(async () => {
    svc = await startService({ TRUST_PROXY: 'true' });
    await setupAdmin(svc);
  });
  after(async () => { await svc?.close(); });

  it('the attack: ten wrong passwords for the admin from A, then A gets 429 RATE_LIMITED with Retry-After', async () => {
    for (let i = 0; i < 10; i++) assert.equal((await wrong('203.0.113.1')).status, 401);
    for (const body of [{ email: ADMIN.email, password: 'yet another guess' }, ADMIN]) {
      const res = await login('203.0.113.1', body);
      assert.equal(res.status, 429, res.text);
      assert.equal(res.body.error, 'RATE_LIMITED');
      const retryAfter = Number(res.headers.get('retry-after'));
      assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    }
  });

  it('the rescue: the right password from B, which has not failed, gets in (after a short delay)', async () => {
    const res = await login('198.51.100.7', ADMIN);
    assert.equal(res.status, 200, res.text);
    const me = await svc.request('GET', '/api/auth/me', { cookie: sessionCookie(res.headers) });
    assert.equal(me.body.user.email, ADMIN.email);
    assert.equal((await wrong('198.51.100.7')).status, 401, 'B is told the password is wrong, not refused');
  });

  it('parallel guesses from one address get no more than ten tries, and the admin still gets in from elsewhere', async () => {
    const answers = await Promise.all(Array.from({ length: 16 }, () => wrong('203.0.113.2')));
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [...Array(10).fill(401), ...Array(6).fill(429)]);
    const res = await login('198.51.100.8', ADMIN);
    assert.equal(res.status, 200, res.text);
  });

  it('an address that fails at many accounts is refused for every account, the admin\'s included', async () => {
    for (let i = 0; i < 30; i++) assert.equal((await wrong('203.0.113.3', `nobody${i}@example.com`)).status, 401);
    for (const email of ['someone-new@example.com', ADMIN.email]) {
      const res = await login('203.0.113.3', { email, password: email === ADMIN.email ? ADMIN.password : 'guess' });
      assert.equal(res.status, 429, `${email}: ${res.text}`);
      assert.ok(Number(res.headers.get('retry-after')) > 0);
    }
    assert.equal((await wrong('198.51.100.9', 'someone-new@example.com')).status, 401, 'another address is not refused');
  });
});
