// Healing's fingerprints from the studio (README "Healing"), on the real service with real headless Chromium: the
// elements a person records steps on or picks are fingerprinted in the studio page; once the task is saved,
// `POST /api/studio/sessions/{id}/fingerprints` stores them for its actions, so a run on a page whose ids and test
// ids were renamed is repaired before any run ever succeeded (the same task without them fails).
// One engine (Playwright): the fingerprint is taken by the page's own script, the same under both.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

async function connect(url: string, apiKey: string) {
  const ws = new WebSocket(url, { headers: { 'x-api-key': apiKey } });
  const messages: any[] = [];
  ws.on('message', (data, isBinary) => { if (!isBinary) messages.push(JSON.parse(String(data))); });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  const waitFor = async (test: (m: any) => boolean, what: string) => {
    for (let i = 0; i < 300; i++) {
      const found = messages.find(test);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${what}; got ${JSON.stringify(messages)}`);
  };
  return { waitFor, send: (message: unknown) => ws.send(JSON.stringify(message)), close: () => ws.close() };
}

describe('studio: fingerprints of recorded and picked elements', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('stores them for the saved task, and a run on a renamed page is repaired from them', async () => {
    const opened = await api('POST', '/api/studio/sessions', { body: { url: `${pages.origin}/studio-heal.html` } });
    assert.equal(opened.status, 200, opened.text);
    const { sessionId, liveUrl } = opened.body;
    const client = await connect(svc.baseUrl.replace('http:', 'ws:') + liveUrl, apiKey);
    await client.waitFor((m) => m.type === 'hello', 'hello');

    // Recorded: typing into the email field, a click on the blue mug.
    client.send({ type: 'mode', mode: 'record' });
    await client.waitFor((m) => m.type === 'mode' && m.mode === 'record', 'record mode');
    const click = (x: number, y: number) => {
      client.send({ type: 'mouse', action: 'down', x, y });
      client.send({ type: 'mouse', action: 'up', x, y });
    };
    click(100, 40);
    for (const key of 'me@example.com') client.send({ type: 'key', key });
    click(100, 100);
    await client.waitFor((m) => m.type === 'recorded' && m.step.action.type === 'click', 'the recorded click');
    // Picked: the red lamp, whose selector the person then puts in an action.
    client.send({ type: 'mode', mode: 'pick' });
    await client.waitFor((m) => m.type === 'mode' && m.mode === 'pick', 'pick mode');
    client.send({ type: 'mouse', action: 'down', x: 100, y: 160 });
    const picked = await client.waitFor((m) => m.type === 'picked', 'the pick');
    assert.equal(picked.candidates[0].selector, '[data-testid="add-red-lamp"]');

    const recording = await api('GET', `/api/studio/sessions/${sessionId}/recording`);
    const actions = [...recording.body.actions, { type: 'click', selector: picked.candidates[0].selector }]
      .map((action) => ({ ...action, timeoutMs: 1500 }));
    assert.deepEqual(actions.map((a) => a.selector), ['#email', '[data-testid="add-blue-mug"]', '[data-testid="add-red-lamp"]'], JSON.stringify(actions));
    const body = { name: 'shop', mode: 'agent', url: `${pages.origin}/studio-heal.html`, actions, extractionScript: 'return document.querySelector("p").textContent.trim()' };
    const task = await api('POST', '/api/tasks', { body });
    const plain = await api('POST', '/api/tasks', { body: { ...body, name: 'shop without fingerprints' } });
    assert.equal(task.status, 200, task.text);

    const stored = await api('POST', `/api/studio/sessions/${sessionId}/fingerprints`, { body: { taskId: task.body.id } });
    assert.equal(stored.status, 200, stored.text);
    assert.deepEqual(stored.body.stored.map((s: { actionIndex: number }) => s.actionIndex), [0, 1, 2]);
    const repairs = (await api('GET', `/api/tasks/${task.body.id}/repairs`)).body;
    assert.deepEqual(repairs.fingerprints.map((f: { actionIndex: number; selector: string }) => [f.actionIndex, f.selector]),
      actions.map((a, i) => [i, a.selector]));
    const again = await api('POST', `/api/studio/sessions/${sessionId}/fingerprints`, { body: { taskId: task.body.id } });
    assert.deepEqual(again.body.stored, [], 'stored already: left as they are');

    // Unknown session or task: 404 with the error body.
    for (const [url, taskId] of [[`/api/studio/sessions/studio_nope/fingerprints`, task.body.id], [`/api/studio/sessions/${sessionId}/fingerprints`, 'no-such-task']]) {
      const refused = await api('POST', url!, { body: { taskId } });
      assert.equal(refused.status, 404, refused.text);
      assert.ok(refused.body.error && refused.body.details, refused.text);
    }
    client.close();
    await api('DELETE', `/api/studio/sessions/${sessionId}`);

    // The page changes its ids and test ids before the task ever ran.
    for (const id of [task.body.id, plain.body.id]) {
      const moved = await api('PATCH', `/api/tasks/${id}`, { body: { url: `${pages.origin}/studio-heal-renamed.html` } });
      assert.equal(moved.status, 200, moved.text);
    }
    const healed = await api('POST', `/api/tasks/${task.body.id}/api`);
    assert.equal(healed.body.status, 'success', JSON.stringify(healed.body));
    assert.equal(healed.body.result.data, 'mug lamp', 'the repaired actions hit the elements recorded');
    const proposed = (await api('GET', `/api/tasks/${task.body.id}/repairs`)).body.repairs;
    assert.deepEqual(proposed.map((r: { actionIndex: number; newSelector: string }) => [r.actionIndex, r.newSelector]).sort(),
      [[0, '#user-mail'], [1, '[data-qa="cart-add-blue-mug"]'], [2, '[data-qa="cart-add-red-lamp"]']]);
    const failed = await api('POST', `/api/tasks/${plain.body.id}/api`);
    assert.notEqual(failed.body.status, 'success', 'without fingerprints nothing repairs it');
  });
});
