import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setupAdmin, startService, type TestService } from '../support/service.js';

describe('system API key', () => {
  let svc: TestService;
  let cookie: string;
  before(async () => {
    svc = await startService();
    ({ cookie } = await setupAdmin(svc));
  });
  after(async () => { await svc.close(); });

  it('generates a key, shows it once, and afterwards only a masked preview', async () => {
    const created = await svc.request('POST', '/api/settings/api-key', { cookie });
    assert.equal(created.status, 200);
    assert.equal(created.body.success, true);
    const key: string = created.body.apiKey;
    assert.ok(key.length >= 32);
    const status = await svc.request('GET', '/api/settings/api-key', { cookie });
    assert.deepEqual(status.body, { configured: true, preview: `****${key.slice(-4)}` });
    assert.ok(!status.text.includes(key));
    assert.equal((await svc.request('GET', '/api/settings/api-key', { apiKey: key })).status, 200);
  });

  it('stores a supplied key of up to 512 characters; 513 gives API_KEY_TOO_LONG', async () => {
    const max = crypto.randomBytes(384).toString('base64url');
    assert.equal(max.length, 512);
    const ok = await svc.request('POST', '/api/settings/api-key', { cookie, body: { apiKey: max } });
    assert.deepEqual([ok.status, ok.body], [200, { success: true, apiKey: max }]);
    assert.equal((await svc.request('GET', '/api/settings/api-key', { apiKey: max })).status, 200);
    const long = await svc.request('POST', '/api/settings/api-key', { cookie, body: { apiKey: 'k'.repeat(513) } });
    assert.equal(long.status, 400);
    assert.equal(long.body.error, 'API_KEY_TOO_LONG');
    assert.equal(typeof long.body.details, 'string');
  });

  it('refuses a guessable key with 400 API_KEY_TOO_WEAK, and keeps the old one', async () => {
    const current = (await svc.request('POST', '/api/settings/api-key', { cookie })).body.apiKey;
    const weak = ['k', 'k'.repeat(31), 'k'.repeat(511) + 'Z', 'password'.repeat(8), 'abcdefghijklmnopqrstuvwxyz0123456789',
      `api-key-${'0123456789'.repeat(3)}`, crypto.randomBytes(12).toString('base64url')];
    for (const apiKey of weak) {
      const res = await svc.request('POST', '/api/settings/api-key', { cookie, body: { apiKey } });
      assert.deepEqual([res.status, res.body.error], [400, 'API_KEY_TOO_WEAK'], apiKey);
      assert.match(res.body.details, apiKey.length < 32 ? /at least 32/ : /at least 128 are needed/);
      assert.ok(!res.text.includes(apiKey), 'the refused key is not repeated');
      assert.equal((await svc.request('GET', '/api/settings/api-key', { apiKey })).status, 401, `${apiKey} works`);
    }
    assert.equal((await svc.request('GET', '/api/settings/api-key', { apiKey: current })).status, 200, 'the old key still works');
    // What a person would generate: 44 base64 characters, 64 hex digits, 32 random letters and digits.
    const strong = [crypto.randomBytes(32).toString('base64'), crypto.randomBytes(32).toString('hex'), 'Zq3vK8pLw2Nx7RtY4mHc9bJs6dGf1aUe'];
    for (const apiKey of strong) {
      const res = await svc.request('POST', '/api/settings/api-key', { cookie, body: { apiKey } });
      assert.deepEqual([res.status, res.body], [200, { success: true, apiKey }], apiKey);
    }
  });

  it('invalidates the old key when a new one is set', async () => {
    const first = (await svc.request('POST', '/api/settings/api-key', { cookie })).body.apiKey;
    const second = (await svc.request('POST', '/api/settings/api-key', { cookie })).body.apiKey;
    assert.notEqual(first, second);
    const old = await svc.request('GET', '/api/settings/api-key', { apiKey: first });
    assert.deepEqual([old.status, old.body.error], [401, 'UNAUTHORIZED']);
    assert.equal((await svc.request('GET', '/api/settings/api-key', { apiKey: second })).status, 200);
  });

  it('accepts the key from x-api-key, key, Authorization: Bearer', async () => {
    const key = (await svc.request('POST', '/api/settings/api-key', { cookie })).body.apiKey;
    const places: Record<string, string>[] = [{ 'x-api-key': key }, { key }, { authorization: `Bearer ${key}` }];
    for (const headers of places) {
      const res = await svc.request('GET', '/api/settings/api-key', { headers });
      assert.equal(res.status, 200, JSON.stringify(Object.keys(headers)));
    }
    const wrong = await svc.request('GET', '/api/settings/api-key', { headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.status, 401);
  });

  it('refuses an anonymous caller', async () => {
    const res = await svc.request('POST', '/api/settings/api-key', { body: { apiKey: 'attacker-chosen-key' } });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'UNAUTHORIZED');
  });
});
