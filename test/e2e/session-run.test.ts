// A person logs in by hand in the open browser session; a task run with that sessionId continues as them.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { chromium } from 'playwright';
import { detectChromium } from '../../layers/browser-pool/index.js';
import { startPagesServer } from '../support/pages-server.js';
import { setupAdmin, startService } from '../support/service.js';

let chromiumMissing: string | false = false;
try {
  detectChromium({});
} catch (error) {
  chromiumMissing = `Chromium not found (${(error as Error).message}): no browser session can open`;
}

it('runs a task inside an open browser session, with the cookies set there by hand', { timeout: 90_000, skip: chromiumMissing }, async () => {
  const pages = await startPagesServer();
  const svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
  try {
    const { apiKey } = await setupAdmin(svc);
    const opened = await svc.request('POST', '/api/browser/open', { apiKey, body: { headless: true } });
    assert.equal(opened.status, 200, opened.text);
    // "By hand": a DevTools client on the relayed endpoint, as a person at the VNC viewer would.
    const remote = await chromium.connectOverCDP(opened.body.wsEndpoint);
    const page = remote.contexts()[0]!.pages()[0] ?? (await remote.contexts()[0]!.newPage());
    await page.goto(`${pages.origin}/set-cookie?name=logged_in&value=by-hand`);
    await remote.close();

    const task = await svc.request('POST', '/api/tasks', { apiKey, body: {
      name: 'Continue as the person', url: `${pages.origin}/echo-cookies`, mode: 'agent', actions: [],
      extractionScript: 'return document.body.innerText',
    } });
    const run = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, body: { sessionId: opened.body.sessionId } });
    assert.equal(run.body.status, 'success', run.text);
    assert.match(String(run.body.result.data), /logged_in=by-hand/);

    const elsewhere = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, body: { statelessExecution: true } });
    assert.equal(elsewhere.body.status, 'success', elsewhere.text);
    assert.doesNotMatch(String(elsewhere.body.result.data), /logged_in/, 'a run outside the session does not see its cookies');
    assert.equal((await svc.request('POST', '/api/browser/close', { apiKey, body: { sessionId: opened.body.sessionId } })).status, 200);
  } finally {
    await svc.close();
    await pages.close();
  }
});
