// POST /api/tasks/run-to-here on the real service with real Chromium against the local pages: it stops at the
// chosen action, answers the page, the variables, the log and the last output, stores no execution, reports a
// failing action, and stops when the caller closes the request. With a liveId, the studio's live view streams its
// page while it runs.
import assert from 'node:assert/strict';
import http from 'node:http';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
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

  it('streams its page to the live view while it runs, and answers as without one', async () => {
    const liveId = crypto.randomBytes(12).toString('base64url');
    // The page repaints while it waits: the screencast sends frames only when the page changes, and a loaded
    // machine may open the socket after the typing was drawn.
    const repaint = 'let n = 0; setInterval(() => { document.body.style.background = n++ % 2 ? "#fff" : "#eee"; }, 100);';
    const slow = { url: `${pages.origin}/`, actions: [
      { type: 'type', selector: '#name', value: 'Live' }, { type: 'javascript', value: repaint }, { type: 'wait', value: '2500' },
      { type: 'click', selector: '#greet' },
    ] };
    // The socket is opened first (it waits for the run to start), so on a loaded machine it is there before the
    // run's first action rather than after its last.
    const ws = new WebSocket(`${svc.baseUrl.replace('http:', 'ws:')}/api/tasks/run-to-here/${liveId}/live`, { headers: { 'x-api-key': apiKey } });
    const frames: number[] = [];
    const messages: any[] = [];
    ws.on('message', (data, isBinary) => { if (isBinary) frames.push(Date.now()); else messages.push(JSON.parse(String(data))); });
    let answeredAt = Infinity;
    const answer = runToHere({ task: slow, actionIndex: 2, liveId }).then((res) => { answeredAt = Date.now(); return res; });
    const closed = new Promise((resolve) => ws.on('close', resolve));
    const res = await answer;
    await closed;

    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success', res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['actionIndex', 'durationMs', 'finalUrl', 'logs', 'screenshot', 'status', 'title', 'variables']);
    assert.match(res.body.screenshot, /^data:image\/png;base64,/);
    assert.ok(frames.some((at) => at < answeredAt), `JPEG frames came while it ran (${frames.length} frames)`);
    assert.deepEqual(messages[0], { type: 'hello', liveId, status: 'running' });
    // A viewer is told the action running when it joins and each one after: a run that began before the socket
    // was attached shows a shorter tail, never an action past the chosen one.
    const named = messages.filter((m) => m.type === 'action').map((m) => m.index);
    assert.ok(named.length > 0 && named.at(-1) === 2, `the last action named is the chosen one (${named})`);
    assert.deepEqual(named, [0, 1, 2].slice(3 - named.length), 'each action named once, in order; action 4 never ran');
    assert.deepEqual(messages.at(-1), { type: 'end', status: 'success' });

    const refused = await svc.request('POST', '/api/tasks/run-to-here', { apiKey, body: { task: slow, actionIndex: 0, liveId: 'short' } });
    assert.equal(refused.status, 400, 'a liveId of fewer than 16 characters');
  });

  it('refuses a live view of a run to here that never started, and one without credentials', async () => {
    const open = (headers: Record<string, string>) => new Promise<number>((resolve) => {
      const ws = new WebSocket(`${svc.baseUrl.replace('http:', 'ws:')}/api/tasks/run-to-here/${'x'.repeat(20)}/live`, { headers });
      ws.on('unexpected-response', (_req, response) => resolve(response.statusCode ?? 0));
      ws.on('open', () => { ws.close(); resolve(101); });
      ws.on('error', () => resolve(0));
    });
    assert.equal(await open({}), 401);
    assert.equal(await open({ 'x-api-key': apiKey }), 404);
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
