// The auth contract suite taskloom exports, run against this provider, and the rules of the proxy header.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Errors } from 'taskloom/errors';
import { authContract, createTestProvider, openTestStorage } from 'taskloom/testing';
import proxyHeaderModule, { proxyHeaderAuth } from '../index.js';

const EMAIL = 'x-forwarded-email';

/**
 * The provider as taskloom creates it, over a real storage on a fresh folder.
 * @param {Record<string, string>} env
 */
async function create(env = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'taskloom-proxy-header-'));
  const storage = await openTestStorage(dataDir);
  const created = await createTestProvider(proxyHeaderAuth, { dataDir, storage, env: { PROXY_HEADER_TRUSTED: '127.0.0.1, 10.1.0.0/16', ...env } });
  return {
    auth: created.instance,
    async cleanup() {
      await created.close();
      await storage.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

authContract('proxy-header', async () => ({
  ...(await create()),
  identity: {
    trusted: [
      { request: { headers: { [EMAIL]: 'ada@example.com', 'x-forwarded-user': 'Ada' }, remoteAddress: '127.0.0.1' }, email: 'ada@example.com' },
      { request: { headers: { [EMAIL]: ' Grace@Example.com ' }, remoteAddress: '::ffff:10.1.2.3' }, email: 'grace@example.com' },
    ],
    untrusted: [
      { headers: { [EMAIL]: 'ada@example.com' }, remoteAddress: '192.0.2.7' },
      { headers: { [EMAIL]: 'ada@example.com' }, remoteAddress: '10.2.0.1' },
      { headers: { [EMAIL]: 'ada@example.com' }, remoteAddress: '::1' },
      { headers: {}, remoteAddress: '127.0.0.1' },
      { headers: { [EMAIL]: 'not an email' }, remoteAddress: '127.0.0.1' },
      { headers: { [EMAIL]: ['a@example.com', 'b@example.com'] }, remoteAddress: '127.0.0.1' },
    ],
  },
}));

/** What identify did with a request: the user, or the error it threw. @param {Promise<unknown>} pending */
const outcome = (pending) => pending.then((user) => ({ user }), (error) => ({ error }));

describe('proxy-header auth', () => {
  it('is what TASKLOOM_MODULES loads: { providers: [the auth provider proxy-header] }', () => {
    assert.deepEqual(proxyHeaderModule.providers, [proxyHeaderAuth]);
    assert.deepEqual([proxyHeaderAuth.capability, proxyHeaderAuth.id], ['auth', 'proxy-header']);
  });

  it('refuses the header from any peer that is not a trusted proxy, saying which variable decides', async () => {
    const { auth, cleanup } = await create();
    try {
      const result = await outcome(auth.identify?.({ headers: { [EMAIL]: 'ada@example.com' }, remoteAddress: '203.0.113.9' }) ?? Promise.resolve());
      assert.ok('error' in result && Errors.UNAUTHORIZED.is(result.error), `expected UNAUTHORIZED, got ${JSON.stringify(result)}`);
      assert.match(/** @type {Error} */ (result.error).message, /PROXY_HEADER_TRUSTED/);
    } finally {
      await cleanup();
    }
  });

  it('without the header it names no one, from any peer: the API key decides', async () => {
    const { auth, cleanup } = await create();
    try {
      for (const remoteAddress of ['127.0.0.1', '203.0.113.9']) {
        assert.equal(await auth.identify?.({ headers: { 'x-forwarded-user': 'ada' }, remoteAddress }), undefined);
      }
      const key = await auth.setApiKey();
      assert.equal(await auth.verifyApiKey(key), true);
    } finally {
      await cleanup();
    }
  });

  it('reads the headers PROXY_HEADER_NAME and PROXY_HEADER_USER_NAME name; the same email is the same user', async () => {
    const { auth, cleanup } = await create({ PROXY_HEADER_NAME: 'X-Auth-Request-Email', PROXY_HEADER_USER_NAME: 'X-Auth-Request-User' });
    try {
      const request = { headers: { 'x-auth-request-email': 'lin@example.com', 'x-auth-request-user': 'Lin' }, remoteAddress: '10.1.200.4' };
      const user = await auth.identify?.(request);
      assert.deepEqual({ ...user, id: undefined }, { id: undefined, name: 'Lin', email: 'lin@example.com' });
      const again = await auth.identify?.({ headers: { 'x-auth-request-email': 'LIN@example.com' }, remoteAddress: '127.0.0.1' });
      assert.equal(again?.id, user?.id);
      assert.equal(again?.name, 'lin', 'without the name header, the email\'s local part');
      assert.equal(await auth.identify?.({ headers: { [EMAIL]: 'lin@example.com' }, remoteAddress: '127.0.0.1' }), undefined, 'the default header no longer counts');
    } finally {
      await cleanup();
    }
  });

  it('will not start without PROXY_HEADER_TRUSTED, or with an entry that is not an address, naming the variable', async () => {
    const dataDir = tmpdir();
    await assert.rejects(createTestProvider(proxyHeaderAuth, { dataDir, env: {} }), /PROXY_HEADER_TRUSTED is required/);
    for (const bad of ['proxy.internal', '10.0.0.0/40', '127.0.0.1,,nonsense']) {
      await assert.rejects(createTestProvider(proxyHeaderAuth, { dataDir, env: { PROXY_HEADER_TRUSTED: bad } }), /PROXY_HEADER_TRUSTED/, bad);
    }
    await assert.rejects(createTestProvider(proxyHeaderAuth, { dataDir, env: { PROXY_HEADER_TRUSTED: '127.0.0.1' } }), /needs the service storage/);
  });
});
