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

    /** A studio session on a fixture page, its live view connected and in Record mode. */
    const openRecording = async (page: string) => {
      const opened = await svc.request('POST', '/api/studio/sessions', { apiKey, body: { url: `${pages.origin}/${page}` } });
      assert.equal(opened.status, 200, opened.text);
      const { sessionId, liveUrl } = opened.body;
      const client = await connect(svc.baseUrl.replace('http:', 'ws:') + liveUrl, apiKey);
      await client.waitFor((m) => m.type === 'hello', 'hello');
      client.send({ type: 'mode', mode: 'record' });
      await client.waitFor((m) => m.type === 'mode' && m.mode === 'record', 'record mode');
      return { sessionId: sessionId as string, client };
    };

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
      assert.deepEqual(actions.map((a: any) => a.type), ['type', 'type', 'select', 'click', 'press']);
      assert.deepEqual(actions[0], { type: 'type', selector: '#who', value: 'Ada' });
      assert.deepEqual(actions[1], { type: 'type', selector: 'input[name="secret"]', value: '{$password}' });
      assert.deepEqual(variables, { password: '' });
      assert.ok(!JSON.stringify(recording.body).includes('s3cret'), 'the password is never recorded');
      assert.deepEqual(actions[2], { type: 'select', selector: '[data-testid="size"]', value: 'l' });
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

    it('records check boxes, a double click and a right click, and the recording replays them', async () => {
      const { sessionId, client } = await openRecording('studio-widgets.html');
      const press = (x: number, y: number, extra: object = {}) => {
        client.send({ type: 'mouse', action: 'down', x, y, ...extra });
        client.send({ type: 'mouse', action: 'up', x, y, ...extra });
      };
      for (let i = 0; i < 3; i++) press(30, 40);
      press(100, 100);
      press(100, 100, { clickCount: 2 });
      await client.waitFor((m) => m.type === 'recorded' && m.step.action.type === 'double_click' && m.count === 4, 'the double click, folded');
      press(100, 160, { button: 'right' });
      await client.waitFor((m) => m.type === 'recorded' && m.step.action.type === 'right_click', 'the right click');

      const recording = await svc.request('GET', `/api/studio/sessions/${sessionId}/recording`, { apiKey });
      const { actions } = recording.body;
      assert.deepEqual(actions.map((a: any) => a.type), ['check', 'uncheck', 'check', 'double_click', 'right_click']);
      assert.ok(actions.slice(0, 3).every((a: any) => a.selector === actions[0].selector), JSON.stringify(actions));
      const task = await svc.request('POST', '/api/tasks', { apiKey, body: {
        name: 'recorded widgets', mode: 'agent', url: `${pages.origin}/studio-widgets.html`, actions,
        extractionScript: 'return [document.querySelector("#agree").checked, window.dbl, window.menus]',
      } });
      const run = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, body: {} });
      assert.equal(run.body.status, 'success', JSON.stringify(run.body.result));
      assert.deepEqual(run.body.result.data, [true, 1, 1]);
      client.close();
      assert.equal((await svc.request('DELETE', `/api/studio/sessions/${sessionId}`, { apiKey })).status, 200);
    });

    it('records waits for elements that appear later, and the recording, run, waits for them too', async () => {
      const { sessionId, client } = await openRecording('studio-later.html');
      const click = (x: number, y: number) => {
        client.send({ type: 'mouse', action: 'down', x, y });
        client.send({ type: 'mouse', action: 'up', x, y });
      };
      /** Clicks at (x, y) until `test` sees an answer, as a person clicks once the element shows (before: the page's empty body, recording nothing). */
      const clickOnceThere = async (x: number, y: number, test: (m: any) => boolean, what: string) => {
        for (let i = 0; i < 100; i++) {
          const found = client.messages.find(test);
          if (found) return found;
          click(x, y);
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        throw new Error(`${what} never showed`);
      };
      click(100, 40);
      await client.waitFor((m) => m.type === 'recorded' && m.step.action.type === 'click', 'the first click');
      const select = await clickOnceThere(100, 100, (m) => m.type === 'select', 'the select');
      client.send({ type: 'choose', x: select.x, y: select.y, value: 'l' });
      await clickOnceThere(100, 160, (m) => m.type === 'recorded' && m.step.action.selector?.includes('Confirm') && m.step.action.type === 'click', 'the Confirm button');

      const recording = await svc.request('GET', `/api/studio/sessions/${sessionId}/recording`, { apiKey });
      const { actions } = recording.body;
      assert.deepEqual(actions.map((a: any) => a.type), ['click', 'wait_selector', 'select', 'wait_selector', 'click'], JSON.stringify(actions));
      assert.equal(actions[0].selector, '#show', 'on the page from the start: no wait');
      assert.equal(actions[1].selector, '[data-testid="size"]');
      assert.equal(actions[3].selector, actions[4].selector);

      // Run, the task waits for each as the person did; the select's script alone would find no element.
      const task = await svc.request('POST', '/api/tasks', { apiKey, body: {
        name: 'recorded later', mode: 'agent', url: `${pages.origin}/studio-later.html`, actions,
        extractionScript: 'return document.querySelector("#out").textContent',
      } });
      const run = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, body: {} });
      assert.equal(run.body.status, 'success', JSON.stringify(run.body.result));
      assert.equal(run.body.result.data, 'l confirmed');
      client.close();
      await svc.request('DELETE', `/api/studio/sessions/${sessionId}`, { apiKey });
    });
  });
}
