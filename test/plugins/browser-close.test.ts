// POST /api/browser/close without a sessionId, on the real service with real Chromium (headless: no
// display here): it ends the one open session; with none open it answers 404 naming the situation;
// a sessionId of the wrong shape is a 400 naming the field.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const alive = (pid: number) => existsSync(`/proc/${pid}`);

describe('POST /api/browser/close without a sessionId', { skip: chromium.skip }, () => {
  let svc: TestService;
  let apiKey: string;
  const close = (body?: unknown, headers?: Record<string, string>) =>
    svc.request('POST', '/api/browser/close', { apiKey, body, headers });
  const open = async () => {
    const res = await svc.request('POST', '/api/browser/open', { apiKey, body: { headless: true } });
    assert.equal(res.status, 200, res.text);
    const session = svc.service.app.browserSessions.get(res.body.sessionId);
    assert.ok(session.pid && alive(session.pid));
    return { id: res.body.sessionId as string, pid: session.pid };
  };

  before(async () => {
    svc = await startService({ BROWSER_EXECUTABLE_PATH: chromium.path! });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => { await svc?.close(); });

  it('with no session open answers 404 NOT_FOUND saying so', async () => {
    for (const body of [undefined, {}]) {
      const res = await close(body);
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.error, 'NOT_FOUND');
      assert.match(res.body.details, /No browser session is open.*POST \/api\/browser\/open/);
    }
  });

  it('with no body at all closes the open session', async () => {
    const { pid } = await open();
    const res = await close();
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true });
    assert.equal(svc.service.app.browserSessions.current(), undefined);
    assert.equal(alive(pid), false, 'its browser ended');
  });

  it('with an empty object, or only the API key in the body, closes the open session', async () => {
    const first = await open();
    assert.equal((await close({})).status, 200);
    assert.equal(alive(first.pid), false);
    const second = await open();
    const res = await svc.request('POST', '/api/browser/close', { body: { apiKey } });
    assert.equal(res.status, 200, res.text);
    assert.equal(alive(second.pid), false);
  });

  it('names the field when sessionId has the wrong shape, and keeps the session open', async () => {
    const { id, pid } = await open();
    for (const sessionId of ['', 42, null]) {
      const res = await close({ sessionId });
      assert.equal(res.status, 400, `${JSON.stringify(sessionId)}: ${res.text}`);
      assert.equal(res.body.error, 'VALIDATION_ERROR');
      assert.match(res.body.details, /body\.sessionId/);
    }
    const notJson = await close(undefined, { 'content-type': 'application/json' });
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.error, 'VALIDATION_ERROR');
    assert.ok(alive(pid), 'nothing was closed');
    assert.equal((await close({ sessionId: id })).status, 200, 'an explicit sessionId still works');
    assert.equal(alive(pid), false);
  });
});
