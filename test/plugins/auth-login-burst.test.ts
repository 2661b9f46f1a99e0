// The probe's attack on the login limits: 200 guesses sent at once, each checked before any had counted, so 199
// of 200 were evaluated (the right password among them). An attempt is now reserved before its password is
// hashed: the local auth provider is wrapped here to count the password checks the service really makes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defineProvider } from '../../kernel/contracts/provider.js';
import { Registry } from '../../kernel/registry.js';
import { LOGIN_LIMITS } from '../../plugins/auth/login-guard.js';
import { plugins, providers } from '../../app/built-ins.js';
import { localAuth } from '../../providers/auth/local/index.js';
import { ADMIN, setupAdmin, startService, type TestService } from '../support/service.js';

/** The built-in modules, with the local auth provider's password checks counted. */
function countingRegistry(checks: { count: number }): Registry {
  const counted = defineProvider({
    ...localAuth,
    async create(context) {
      const auth = await localAuth.create(context);
      return { ...auth, login: (email, password) => { checks.count++; return auth.login(email, password); } };
    },
  });
  const registry = new Registry();
  registry.addModule({ providers: providers?.map((p) => (p === localAuth ? counted : p)), plugins });
  return registry;
}

describe('auth: a burst of 200 login guesses', () => {
  const checks = { count: 0 };
  let svc: TestService;
  const burst = (address: string, passwords: string[]) => Promise.all(passwords.map((password) =>
    svc.request('POST', '/api/auth/login', { body: { email: ADMIN.email, password }, headers: { 'x-forwarded-for': address } })));
  const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

  before(async () => {
    svc = await startService({ TRUST_PROXY: 'true' }, undefined, { registry: countingRegistry(checks) });
    await setupAdmin(svc);
    checks.count = 0;
  });
  after(async () => { await svc?.close(); });

  it('checks no more passwords than the limit allows (10), and refuses the rest with 429', async () => {
    const answers = await burst('203.0.113.50', Array.from({ length: 200 }, (_, i) => `guess number ${i}`));
    assert.equal(checks.count, LOGIN_LIMITS.perPair, `${checks.count} passwords checked`);
    assert.deepEqual(tally(answers.map((r) => r.status)), { 401: 10, 429: 190 });
    assert.ok(answers.filter((r) => r.status === 429).every((r) => Number(r.headers.get('retry-after')) > 0));
  });

  it('then a second burst with the right password among them is refused whole, none of it checked', async () => {
    const passwords = Array.from({ length: 200 }, (_, i) => (i === 137 ? ADMIN.password : `second guess ${i}`));
    const answers = await burst('203.0.113.50', passwords);
    assert.deepEqual(tally(answers.map((r) => r.status)), { 429: 200 });
    assert.equal(checks.count, LOGIN_LIMITS.perPair, 'a password was checked after the limit');
  });

  it('the admin still gets in from another address', async () => {
    const res = await svc.request('POST', '/api/auth/login', { body: ADMIN, headers: { 'x-forwarded-for': '198.51.100.50' } });
    assert.equal(res.status, 200, res.text);
  });
});
