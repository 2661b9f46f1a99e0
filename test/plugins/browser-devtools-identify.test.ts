// The DevTools WebSocket upgrade never reaches Fastify's hooks, so it applies the API's rules itself: an auth
// provider that identifies the caller from the request (an SSO proxy's header, auth contract 1.1) is asked there
// too, and its user counts as a session (this service's own pages only), as on every route.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { builtInRegistry } from '../../app/service.js';
import { IDENTITY_HEADER, identifyingAuth } from '../support/identifying-auth.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

/** The status of a WebSocket upgrade to the relay of a session that is not open, with `headers`. */
function upgradeStatus(baseUrl: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}/api/browser/sessions/not-open/devtools`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
    });
    request.on('response', (response) => { response.resume(); resolve(response.statusCode ?? 0); });
    request.on('upgrade', (response, socket) => { socket.destroy(); resolve(response.statusCode ?? 101); });
    request.on('error', reject);
    request.end();
  });
}

describe('DevTools relay upgrade: identify', () => {
  let svc: TestService;
  before(async () => {
    const registry = await builtInRegistry();
    registry.addProvider(identifyingAuth);
    svc = await startService({ AUTH_PROVIDER: 'identify-test' }, undefined, { registry });
    await setupAdmin(svc);
  });
  after(async () => { await svc?.close(); });

  it('lets an identified caller through to the relay (which then finds no such session: 404)', async () => {
    assert.equal(await upgradeStatus(svc.baseUrl, { [IDENTITY_HEADER]: 'grace' }), 404);
  });

  it('refuses the same upgrade without the identity (401), or when identify refuses (401)', async () => {
    assert.equal(await upgradeStatus(svc.baseUrl, {}), 401);
    assert.equal(await upgradeStatus(svc.baseUrl, { [IDENTITY_HEADER]: 'refuse' }), 401);
  });

  it('refuses an identified caller from another site, as it refuses a session cookie (403)', async () => {
    assert.equal(await upgradeStatus(svc.baseUrl, { [IDENTITY_HEADER]: 'grace', origin: 'https://evil.example' }), 403);
  });
});
