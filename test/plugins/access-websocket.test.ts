// WebSocket upgrades never pass through route hooks: their own check (layers/websocket-upgrade) asks for the `run`
// scope too, so a viewer can neither watch nor drive a browser; an editor gets past it to the endpoint's own answer.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { loginAs } from '../support/team.js';

/** The status an upgrade request to `path` is answered with (a refusal is a plain HTTP answer). */
function upgradeStatus(baseUrl: string, path: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', cookie },
    });
    req.on('upgrade', (res, socket) => { socket.destroy(); resolve({ status: res.statusCode ?? 101, body: '' }); });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('access: WebSocket upgrades', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await setupAdmin(svc);
  });
  after(async () => { await svc.close(); });

  it('refuses a viewer with 403 naming the run scope; lets an editor through to the endpoint', async () => {
    const path = '/api/executions/no-such-run/live';
    const viewer = await upgradeStatus(svc.baseUrl, path, await loginAs(svc, 'viewer'));
    assert.equal(viewer.status, 403, viewer.body);
    assert.match(JSON.parse(viewer.body).details, /"run" scope/);
    const editor = await upgradeStatus(svc.baseUrl, path, await loginAs(svc, 'editor'));
    assert.notEqual(editor.status, 403, editor.body);
    assert.notEqual(editor.status, 401, editor.body);
  });
});
