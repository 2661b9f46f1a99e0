// The route policy asks an auth provider that offers `identify` (auth contract 1.1) before the cookie and the key:
// on the real service, with a provider that adds identify to the local one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtInRegistry } from '../../app/service.js';
import { IDENTITY_HEADER as WHO, identifyingAuth } from '../support/identifying-auth.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

describe('route policy: identify', () => {
  let svc: TestService;
  let apiKey: string;
  before(async () => {
    const registry = await builtInRegistry();
    registry.addProvider(identifyingAuth);
    svc = await startService({ AUTH_PROVIDER: 'identify-test' }, undefined, { registry });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => { await svc.close(); });

  it('takes the user identify names as a dashboard session', async () => {
    const me = await svc.request('GET', '/api/auth/me', { headers: { [WHO]: 'grace' } });
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(me.body.user, { id: 'usr_grace', name: 'grace', email: 'grace@example.com' });
    const list = await svc.request('GET', '/api/tasks', { headers: { [WHO]: 'grace' } });
    assert.equal(list.status, 200, list.text);
  });

  it('an identified user is a session, not the API key: an API-key-only route answers 403', async () => {
    const res = await svc.request('GET', '/api/executions/list', { headers: { [WHO]: 'grace' } });
    assert.deepEqual([res.status, res.body.error], [403, 'FORBIDDEN']);
  });

  it('leaves a request it does not identify to the cookie and the key', async () => {
    assert.equal((await svc.request('GET', '/api/tasks')).status, 401);
    assert.equal((await svc.request('GET', '/api/tasks', { apiKey })).status, 200);
  });

  it('a refusal from identify stands, even beside a valid API key', async () => {
    const res = await svc.request('GET', '/api/tasks', { apiKey, headers: { [WHO]: 'refuse' } });
    assert.deepEqual([res.status, res.body.error], [401, 'UNAUTHORIZED']);
    assert.match(res.body.details, /refused by identify/);
  });

  it('public routes never ask identify', async () => {
    const res = await svc.request('GET', '/api/health', { headers: { [WHO]: 'refuse' } });
    assert.equal(res.status, 200);
  });
});
