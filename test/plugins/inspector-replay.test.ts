// POST /api/inspector/highlight with the extension fields `task` and `actionIndex`: the actions before
// actionIndex run (in a fresh context, as generate-selector runs them) before matching, so an element that only
// an action reveals is found; the refusals of the combination; the spec's own fields are in inspector.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

describe('POST /api/inspector/highlight with task and actionIndex', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let task: { url: string; actions: Array<Record<string, unknown>> };
  const highlight = (body: Record<string, unknown>) => svc.request('POST', '/api/inspector/highlight', { apiKey, body });

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_EXECUTABLE_PATH: chromium.path! });
    ({ apiKey } = await setupAdmin(svc));
    task = {
      url: `${pages.origin}/index.html`,
      actions: [
        { type: 'type', selector: '#name', value: 'Ada' },
        { type: 'click', selector: '#greet' }, // writes "Hello, Ada" into #greeting
        { type: 'click', selector: '#increment' }, // the action being edited: must not run
      ],
    };
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('finds an element that only the actions before actionIndex reveal, and runs none after them', async () => {
    const plain = await highlight({ url: task.url, targetHint: 'Hello, Ada', screenshot: false });
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual(plain.body.candidates, [], 'the start page holds no greeting');

    const replayed = await highlight({ task, actionIndex: 2, targetHint: 'Hello, Ada', screenshot: false });
    assert.equal(replayed.status, 200, replayed.text);
    const [top] = replayed.body.candidates;
    assert.deepEqual([top?.tag, top?.text, top?.selector], ['span', 'Hello, Ada', '#greeting']);

    const count = await highlight({ task, actionIndex: 2, targetHint: '#count', screenshot: false });
    assert.equal(count.body.candidates[0]?.text, '0', 'action 3 (the one being edited) did not run');
    const none = await highlight({ task, actionIndex: 0, targetHint: 'Hello, Ada', screenshot: false });
    assert.deepEqual(none.body.candidates, [], 'actionIndex 0 runs no action');
  });

  it('adds the JPEG of the replayed page by default', async () => {
    const res = await highlight({ task, actionIndex: 2, targetHint: 'Hello, Ada' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([...Buffer.from(res.body.screenshot, 'base64').subarray(0, 3)], [0xff, 0xd8, 0xff]);
  });

  it('answers 502 naming where the replay stopped when an action fails', async () => {
    const broken = { url: task.url, actions: [{ type: 'click', selector: '#missing', timeoutMs: 1000 }, { type: 'click', selector: '#greet' }] };
    const res = await highlight({ task: broken, actionIndex: 1, targetHint: 'x' });
    assert.equal(res.status, 502, res.text);
    assert.equal(res.body.error, 'UPSTREAM_ERROR');
    assert.match(res.body.details, /^Could not reach the page before action 2: .*#missing/);
  });

  it('refuses the fields in combinations that say two things', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ actionIndex: 1 }, /body\.actionIndex needs body\.task/],
      [{ task }, /body\.actionIndex is required with body\.task/],
      [{ task, actionIndex: 1, url: task.url }, /body\.url or body\.task, not both/],
      [{ task, actionIndex: 1, sessionId: 'bs_x' }, /body\.sessionId cannot be combined with body\.task/],
      [{ task, actionIndex: 4 }, /body\.actionIndex is 4 but the task has 3 actions/],
      [{ task, actionIndex: -1 }, /actionIndex/],
      [{ task: { url: task.url }, actionIndex: 0 }, /actions/],
    ];
    for (const [body, details] of cases) {
      const res = await highlight({ targetHint: 'x', ...body });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(body));
      assert.match(res.body.details, details, JSON.stringify(body));
    }
  });
});

describe('POST /api/inspector/highlight with a task on a private address', () => {
  let svc: TestService;
  let apiKey: string;
  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
  });
  after(() => svc.close());

  it('answers 400 INVALID_URL before any browser starts', async () => {
    const body = { targetHint: 'x', task: { url: 'http://127.0.0.1:9/', actions: [] }, actionIndex: 0 };
    const res = await svc.request('POST', '/api/inspector/highlight', { apiKey, body });
    assert.deepEqual([res.status, res.body.error], [400, 'INVALID_URL']);
  });
});
