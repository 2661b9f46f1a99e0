// POST /api/tasks/run-to-here on the real service with real Chromium against the local pages: it stops at the
// chosen action, answers the page, the variables, the log and the last output, stores no execution, reports a
// failing action, and stops when the caller closes the request.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

describe('POST /api/tasks/run-to-here', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let task: Record<string, unknown>;
  const runToHere = (body: unknown) => svc.request('POST', '/api/tasks/run-to-here', { apiKey, body });

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
    task = {
      url: `${pages.origin}/`, variables: { who: 'Ada' },
      actions: [
        { type: 'type', selector: '#name', value: '{$who}' },
        { type: 'click', selector: '#greet' },
        { type: 'javascript', value: "return document.querySelector('#greeting').textContent" },
        { type: 'set', varName: 'greeting' },
        { type: 'click', selector: '#missing', timeoutMs: 500 },
      ],
    };
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('runs the actions up to the chosen one and answers the screenshot, variables, log and last output', async () => {
    const res = await runToHere({ task, actionIndex: 3, variables: { who: 'Grace' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success', res.text);
    assert.equal(res.body.output, 'Hello, Grace');
    assert.deepEqual(res.body.variables, { who: 'Grace', greeting: 'Hello, Grace' });
    assert.match(res.body.screenshot, /^data:image\/png;base64,iVBOR/);
    assert.equal(res.body.finalUrl, `${pages.origin}/`);
    const indexes = res.body.logs.flatMap((line: { actionIndex?: number }) => (line.actionIndex === undefined ? [] : [line.actionIndex]));
    assert.deepEqual([...new Set(indexes)], [0, 1, 2, 3], 'action 5 never ran');
    assert.match(res.body.logs.at(-1).message, /stopped after action 4/);
    const stored = await svc.request('GET', '/api/executions', { apiKey });
    assert.deepEqual(stored.body, [], 'no execution is stored');
  });

  it('answers a failing action as the error, with the page and the variables so far', async () => {
    const res = await runToHere({ task, actionIndex: 4 });
    assert.equal(res.body.status, 'error', res.text);
    assert.equal(res.body.error.actionIndex, 4);
    assert.match(res.body.error.message, /^Action 5 \(click\)/);
    assert.equal(res.body.variables.greeting, 'Hello, Ada');
    assert.match(res.body.screenshot, /^data:image\/png/);
  });

  it('refuses an action index past the last action', async () => {
    const res = await runToHere({ task, actionIndex: 5 });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'VALIDATION_ERROR');
  });

  it('stops when the caller closes the request: its context is closed', async () => {
    // A connection of its own, closed as a browser closes a request it gives up (undici's abort leaves the server
    // a connection that holds its close for a minute).
    const request = http.request(`${svc.baseUrl}/api/tasks/run-to-here`, {
      method: 'POST', agent: false, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    });
    const answered = new Promise<boolean>((resolve) => {
      request.on('response', () => resolve(true));
      request.on('error', () => resolve(false));
      request.on('close', () => resolve(false));
    });
    request.end(JSON.stringify({ task: { url: `${pages.origin}/`, actions: [{ type: 'wait', value: '120000' }] }, actionIndex: 0 }));
    const browser = svc.service.services.browser;
    const until = async (check: () => boolean, what: string) => {
      for (const started = Date.now(); !check(); await new Promise((resolve) => setTimeout(resolve, 100))) {
        if (Date.now() - started > 30_000) assert.fail(`timed out waiting for ${what}`);
      }
    };
    await until(() => browser.openContexts() === 1, 'the context to open');
    request.destroy();
    assert.equal(await answered, false);
    await until(() => browser.openContexts() === 0, 'the context to close');
  });
});
