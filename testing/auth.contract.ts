// The bar every auth provider meets: `authContract('my-auth', factory)`, the factory building a fresh provider on
// fresh data for each test (worked examples: taskloom's test/providers/auth/local.test.ts, and the proxy-header
// provider of examples/). A provider keeps accounts of its own (setup, login, sessions) or knows its users from
// the request (`identify`); the cases that do not apply to it are skipped, saying why.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import type { AuthProvider, AuthRequest, PublicUser } from '../kernel/contracts/auth.js';
import { Errors } from '../kernel/errors.js';
import { accountCases } from './auth-accounts.cases.js';
import { freshHarnessEach } from './fresh-harness.js';

/** One auth provider under test. */
export interface AuthHarness {
  auth: AuthProvider;
  /**
   * Required when the provider offers `identify`: requests it must take for a user (with that user's email), and
   * requests it must not (it refuses them with UNAUTHORIZED or leaves them to the cookie and the API key).
   */
  identity?: {
    trusted: Array<{ request: AuthRequest; email: string }>;
    untrusted: AuthRequest[];
  };
  /** Closes what the provider opened and removes its data. */
  cleanup(): Promise<void>;
}

export type AuthFactory = () => Promise<AuthHarness>;

const PASSWORD = 'correct horse battery staple';
const PUBLIC_USER_KEYS = ['email', 'id', 'name'];
const ROLES = ['admin', 'editor', 'viewer'];

/** Resolves to what `promise` rejects with, or fails when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then((value) => assert.fail(`expected a rejection, got ${JSON.stringify(value)}`), (error: unknown) => error);
}

function assertPublicUser(user: PublicUser | undefined, email?: string): asserts user is PublicUser {
  assert.ok(user, 'expected a user');
  const { role, ...rest } = user;
  assert.deepEqual(Object.keys(rest).sort(), PUBLIC_USER_KEYS, 'a user as the API shows it: id, name and email (and role) only');
  if (role !== undefined) assert.ok(ROLES.includes(role), `role ${role}`);
  assert.equal(typeof user.id, 'string');
  assert.notEqual(user.id, '');
  if (email !== undefined) assert.equal(user.email.toLowerCase(), email.toLowerCase());
}

export function authContract(name: string, factory: AuthFactory): void {
  describe(`auth contract: ${name}`, () => {
    const harness = freshHarnessEach('auth', factory);
    const auth = (): AuthProvider => harness().auth;
    /** Whether the provider keeps accounts of its own: a fresh one then needs its first admin. */
    const keepsAccounts = () => auth().isSetupRequired();
    const accountsOrSkip = async (t: TestContext): Promise<boolean> => {
      if (await keepsAccounts()) return true;
      t.skip(`${name} keeps no accounts of its own (a fresh instance needs no setup)`);
      return false;
    };

    describe('the system API key', () => {
      it('none is set at first: the status says so and no key verifies', async () => {
        assert.deepEqual(await auth().apiKeyStatus(), { configured: false, preview: null });
        assert.equal(await auth().verifyApiKey('tlk_anything'), false);
        assert.equal(await auth().verifyApiKey(''), false);
      });

      it('a given key verifies, a near miss does not, and the status shows only its last 4 characters', async () => {
        const key = `tlk_${randomBytes(24).toString('base64url')}`;
        assert.equal(await auth().setApiKey(key), key);
        assert.equal(await auth().verifyApiKey(key), true);
        for (const miss of [key.slice(0, -1), `${key}x`, key.toUpperCase() === key ? key.toLowerCase() : key.toUpperCase(), '']) {
          assert.equal(await auth().verifyApiKey(miss), false, `${JSON.stringify(miss)} verified`);
        }
        const status = await auth().apiKeyStatus();
        assert.equal(status.configured, true);
        const preview = status.preview ?? '';
        assert.ok(preview.endsWith(key.slice(-4)), `preview ${status.preview}`);
        assert.ok(!preview.includes(key.slice(0, -4)), 'the preview shows more than the last 4 characters');
      });

      it('setApiKey() without a key generates one; a new key replaces the old', async () => {
        const first = await auth().setApiKey();
        assert.ok(typeof first === 'string' && first.length >= 20, `a generated key of ${first.length} characters`);
        assert.equal(await auth().verifyApiKey(first), true);
        const second = await auth().setApiKey();
        assert.notEqual(second, first);
        assert.equal(await auth().verifyApiKey(second), true);
        assert.equal(await auth().verifyApiKey(first), false, 'the replaced key still verifies');
      });
    });

    describe('accounts', () => {
      it('a provider without accounts of its own refuses setup and every login, and knows no session', async (t) => {
        if (await keepsAccounts()) return t.skip(`${name} keeps accounts (its setup is tested below)`);
        assert.ok(Errors.ALREADY_INITIALIZED.is(await rejection(auth().setup({ name: 'Ada', email: 'ada@example.com', password: PASSWORD }))));
        assert.ok(Errors.INVALID_CREDENTIALS.is(await rejection(auth().login('ada@example.com', PASSWORD))));
        assert.equal(await auth().resolveSession('no-such-token'), undefined);
        assert.equal(await auth().isSetupRequired(), false);
      });

      it('setup creates the first admin once; a second setup throws ALREADY_INITIALIZED', async (t) => {
        if (!(await accountsOrSkip(t))) return;
        const user = await auth().setup({ name: 'Ada', email: 'ada@example.com', password: PASSWORD });
        assertPublicUser(user, 'ada@example.com');
        assert.equal(user.name, 'Ada');
        assert.ok(user.role === undefined || user.role === 'admin', 'the first user is an admin');
        assert.equal(await auth().isSetupRequired(), false);
        const again = await rejection(auth().setup({ name: 'Eve', email: 'eve@example.com', password: PASSWORD }));
        assert.ok(Errors.ALREADY_INITIALIZED.is(again), `expected ALREADY_INITIALIZED, got ${String(again)}`);
      });

      it('of five setups at once exactly one succeeds', async (t) => {
        if (!(await accountsOrSkip(t))) return;
        const outcomes = await Promise.allSettled(
          [0, 1, 2, 3, 4].map((i) => auth().setup({ name: `Admin ${i}`, email: `admin${i}@example.com`, password: PASSWORD })),
        );
        assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
        for (const o of outcomes) if (o.status === 'rejected') assert.ok(Errors.ALREADY_INITIALIZED.is(o.reason));
      });

      it('login gives a token whose session resolves to the user until logout', async (t) => {
        if (!(await accountsOrSkip(t))) return;
        const admin = await auth().setup({ name: 'Ada', email: 'ada@example.com', password: PASSWORD });
        const before = Date.now();
        const login = await auth().login('ada@example.com', PASSWORD);
        assert.deepEqual(login.user, admin);
        assert.ok(typeof login.token === 'string' && login.token.length >= 16, 'an opaque token');
        assert.ok(login.expiresAtMs > before, 'the session expires in the future');
        assert.deepEqual(await auth().resolveSession(login.token), admin);
        const other = await auth().login('ada@example.com', PASSWORD);
        assert.notEqual(other.token, login.token);
        await auth().logout(login.token);
        assert.equal(await auth().resolveSession(login.token), undefined, 'a logged-out session still resolves');
        assert.deepEqual(await auth().resolveSession(other.token), admin, 'logout ended another session too');
      });

      it('login refuses a wrong password and an unknown email alike (INVALID_CREDENTIALS); an unknown token resolves to no one', async (t) => {
        if (!(await accountsOrSkip(t))) return;
        await auth().setup({ name: 'Ada', email: 'ada@example.com', password: PASSWORD });
        for (const [email, password] of [['ada@example.com', `${PASSWORD}!`], ['nobody@example.com', PASSWORD], ['ada@example.com', '']]) {
          const error = await rejection(auth().login(email!, password!));
          assert.ok(Errors.INVALID_CREDENTIALS.is(error), `${email}: expected INVALID_CREDENTIALS, got ${String(error)}`);
        }
        assert.equal(await auth().resolveSession(randomBytes(32).toString('base64url')), undefined);
        await assert.doesNotReject(auth().logout('no-such-token'));
      });
    });

    accountCases(name, auth);

    describe('named API keys (optional since 1.2)', () => {
      const keysOrSkip = (t: TestContext): Required<Pick<AuthProvider, 'createApiKey' | 'listApiKeys' | 'revokeApiKey' | 'resolveApiKey'>> | undefined => {
        const { createApiKey, listApiKeys, revokeApiKey, resolveApiKey } = auth();
        if (createApiKey && listApiKeys && revokeApiKey && resolveApiKey) return auth() as never;
        t.skip(`${name} keeps no named API keys (they are optional)`);
        return undefined;
      };

      it('a created key resolves to its grant; the list never holds the key; a near miss and the system key resolve to none', async (t) => {
        const keys = keysOrSkip(t);
        if (!keys) return;
        const { key, apiKey } = await keys.createApiKey({ name: 'ci', scopes: ['read', 'run'], taskIds: ['task_1'] });
        assert.deepEqual(await keys.resolveApiKey(key), { id: apiKey.id, name: 'ci', scopes: ['read', 'run'], taskIds: ['task_1'] });
        const listed = await keys.listApiKeys();
        assert.equal(listed.length, 1);
        assert.ok(!JSON.stringify(listed).includes(key.slice(-20)), 'the list shows the key');
        assert.ok(listed[0]!.lastUsedAt, 'resolving a key records its use');
        for (const miss of [key.slice(0, -1), `${key}x`, '']) assert.equal(await keys.resolveApiKey(miss), undefined);
        const system = await auth().setApiKey();
        assert.equal(await keys.resolveApiKey(system), undefined, 'the system key is no named key');
        assert.equal(await auth().verifyApiKey(key), false, 'a named key is not the system key');
      });

      it('a revoked or expired key is refused with UNAUTHORIZED saying why; revoking an unknown id is API_KEY_NOT_FOUND', async (t) => {
        const keys = keysOrSkip(t);
        if (!keys) return;
        const { key, apiKey } = await keys.createApiKey({ name: 'gone', scopes: ['admin'] });
        assert.ok((await keys.revokeApiKey(apiKey.id)).revokedAt);
        const revoked = await rejection(keys.resolveApiKey(key));
        assert.ok(Errors.UNAUTHORIZED.is(revoked) && /revoked/.test(String((revoked as Error).message)), String(revoked));
        assert.ok(Errors.API_KEY_NOT_FOUND.is(await rejection(keys.revokeApiKey('0000000000000000'))));
        const soon = await keys.createApiKey({ name: 'brief', scopes: ['read'], expiresAt: new Date(Date.now() + 300).toISOString() });
        await new Promise((resolve) => setTimeout(resolve, 400));
        const expired = await rejection(keys.resolveApiKey(soon.key));
        assert.ok(Errors.UNAUTHORIZED.is(expired) && /expired/.test(String((expired as Error).message)), String(expired));
        assert.ok(Errors.VALIDATION_ERROR.is(await rejection(keys.createApiKey({ name: 'past', scopes: ['read'], expiresAt: '2020-01-01T00:00:00Z' }))));
      });
    });

    describe('identify (optional since 1.1)', () => {
      const identityOrSkip = (t: TestContext): NonNullable<AuthHarness['identity']> | undefined => {
        if (!auth().identify) {
          t.skip(`${name} does not identify requests (identify is optional)`);
          return undefined;
        }
        const { identity } = harness();
        assert.ok(identity, 'a provider with identify: the factory must give `identity` requests to try');
        assert.ok(identity.trusted.length > 0 && identity.untrusted.length > 0, 'give trusted and untrusted requests');
        return identity;
      };

      it('knows the user of each trusted request, the same user every time', async (t) => {
        const identity = identityOrSkip(t);
        if (!identity) return;
        for (const { request, email } of identity.trusted) {
          const user = await auth().identify!(request);
          assertPublicUser(user, email);
          assert.deepEqual(await auth().identify!(request), user, 'the same request gave another user');
        }
      });

      it('never takes an untrusted request for a user: it refuses it (UNAUTHORIZED) or leaves it to the cookie and the key', async (t) => {
        const identity = identityOrSkip(t);
        if (!identity) return;
        for (const request of identity.untrusted) {
          const outcome = await auth().identify!(request).then((user) => ({ user }), (error: unknown) => ({ error }));
          if ('error' in outcome) {
            assert.ok(Errors.UNAUTHORIZED.is(outcome.error), `expected UNAUTHORIZED, got ${String(outcome.error)}`);
          } else {
            assert.equal(outcome.user, undefined, `${request.remoteAddress} was taken for ${JSON.stringify(outcome.user)}`);
          }
        }
      });
    });
  });
}
