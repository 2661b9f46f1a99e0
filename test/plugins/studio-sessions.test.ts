// Studio sessions on the real service with real headless Chromium (both engines): a page opened by URL, driven
// through the DevTools Input domain over the session's WebSocket, an element picked with ranked selectors that each
// match it alone, and a recording of a click, typing (a password as a variable), a select and a key that, run as a
// task, does the same again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

/** A studio WebSocket client: sends input, waits for messages. */
async function connect(url: string, apiKey: string) {
  const ws = new WebSocket(url, { headers: { 'x-api-key': apiKey } });
  const messages: any[] = [];
  let frames = 0;
  ws.on('message', (data, isBinary) => { if (isBinary) frames++; else messages.push(JSON.parse(String(data))); });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  const waitFor = async (test: (m: any) => boolean, what: string) => {
    for (let i = 0; i < 300; i++) {
      const found = messages.find(test);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${what}; got ${JSON.stringify(messages.filter((m) => m.type !== 'viewport'))}`);
  };
  return {
    messages, frames: () => frames, waitFor,
    send: (message: unknown) => ws.send(JSON.stringify(message)),
    close: () => ws.close(),
  };
}

const centre = (box: { x: number; y: number; width: number; height: number }) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

for (const engine of ['playwright', 'puppeteer']) {
  describe(`studio sessions (${engine})`, { skip: chromium.skip }, () => {
    let svc: TestService;
    let pages: PagesServer;
    let apiKey: string;

    before(async () => {
      pages = await startPagesServer();
      svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_ENGINE: engine });
      ({ apiKey } = await setupAdmin(svc));
    });
    after(async () => {
      await svc?.close();
      await pages?.close();
    });

    it('picks an element with ranked selectors, records what a person does, and the recording runs as a task', async () => {
      const opened = await svc.request('POST', '/api/studio/sessions', { apiKey, body: { url: `${pages.origin}/studio-order.html` } });
      assert.equal(opened.status, 200, opened.text);
      const { sessionId, liveUrl } = opened.body;
      const client = await connect(svc.baseUrl.replace('http:', 'ws:') + liveUrl, apiKey);
      await client.waitFor((m) => m.type === 'hello', 'hello');

      // Point and click: hovering outlines, a click picks; each selector names the button alone.
      client.send({ type: 'mode', mode: 'pick' });
      client.send({ type: 'mouse', action: 'move', x: 100, y: 220 });
      const hover = await client.waitFor((m) => m.type === 'hover' && m.box, 'hover');
      assert.deepEqual([hover.box.x, hover.box.y, hover.box.width, hover.box.height], [20, 205, 240, 30]);
      client.send({ type: 'mouse', action: 'down', x: 100, y: 220 });
      const picked = await client.waitFor((m) => m.type === 'picked', 'pick');
      assert.equal(picked.tag, 'button');
      assert.deepEqual(picked.candidates.map((c: any) => c.kind), ['role', 'text', 'CSS path']);
      assert.equal(picked.candidates[0].selector, 'role=button[name="Place order"]');
      for (const c of picked.candidates) assert.ok(c.confidence > 0 && c.confidence <= 1);

      // The recorder: typing, a password, a select (shown as a list here), a click and a key.
      client.send({ type: 'mode', mode: 'record' });
      await client.waitFor((m) => m.type === 'mode' && m.mode === 'record', 'record mode');
      const click = (x: number, y: number) => {
        client.send({ type: 'mouse', action: 'down', x, y });
        client.send({ type: 'mouse', action: 'up', x, y });
      };
      const type = (text: string) => { for (const key of text) client.send({ type: 'key', key }); };
      click(100, 40);
      type('Ada');
      click(100, 100);
      type('s3cret!');
      click(100, 160);
      const select = await client.waitFor((m) => m.type === 'select', 'the select\'s options');
      assert.deepEqual(select.options.map((o: any) => o.label), ['Small', 'Medium', 'Large']);
      client.send({ type: 'choose', x: select.x, y: select.y, value: 'l' });
      click(100, 220);
      client.send({ type: 'key', key: 'Tab' });
      await client.waitFor((m) => m.type === 'recorded' && m.step.action.type === 'press', 'the recorded key');

      const recording = await svc.request('GET', `/api/studio/sessions/${sessionId}/recording`, { apiKey });
      assert.equal(recording.status, 200);
      const { actions, variables } = recording.body;
      assert.deepEqual(actions.map((a: any) => a.type), ['type', 'type', 'javascript', 'click', 'press']);
      assert.deepEqual(actions[0], { type: 'type', selector: '#who', value: 'Ada' });
      assert.deepEqual(actions[1], { type: 'type', selector: 'input[name="secret"]', value: '{$password}' });
      assert.deepEqual(variables, { password: '' });
      assert.ok(!JSON.stringify(recording.body).includes('s3cret'), 'the password is never recorded');
      assert.ok(actions[2].value.includes(JSON.stringify('[data-testid="size"]')), actions[2].value);
      assert.equal(actions[3].selector, 'role=button[name="Place order"]');

      // The recording, as a task, does it again.
      const task = await svc.request('POST', '/api/tasks', { apiKey, body: {
        name: 'recorded', mode: 'agent', url: `${pages.origin}/studio-order.html`, actions, variables: { password: 'x' },
        extractionScript: 'return document.querySelector("#out").textContent',
      } });
      const run = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, body: {} });
      assert.equal(run.body.status, 'success', JSON.stringify(run.body.result));
      assert.equal(run.body.result.data, 'Ada ordered l with a password');
      client.close();
      assert.ok(client.frames() >= 1);
      const closed = await svc.request('DELETE', `/api/studio/sessions/${sessionId}`, { apiKey });
      assert.equal(closed.status, 200);
    });
  });
}
