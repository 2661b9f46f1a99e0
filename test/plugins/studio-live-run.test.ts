// The live view of a run (`/api/executions/{id}/live`) on the real service with real headless Chromium, both
// engines: JPEG frames while the run goes on, the current action named with its element's box, the end, and the
// refusals (no credentials, an unknown execution).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

interface Watched {
  frames: Buffer[];
  messages: any[];
  closeCode: number;
}

/** Watches a live view until the server closes it. */
function watch(url: string, apiKey: string): Promise<Watched> {
  const seen: Watched = { frames: [], messages: [], closeCode: 0 };
  const ws = new WebSocket(url, { headers: { 'x-api-key': apiKey } });
  ws.on('message', (data, isBinary) => {
    if (isBinary) seen.frames.push(data as Buffer);
    else seen.messages.push(JSON.parse(String(data)));
  });
  return new Promise((resolve, reject) => {
    ws.on('error', reject);
    ws.on('close', (code) => resolve({ ...seen, closeCode: code }));
  });
}

/** The HTTP status an upgrade is refused with. */
function refusedWith(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); ws.terminate(); });
    ws.on('open', () => reject(new Error('the upgrade was accepted')));
    ws.on('error', () => undefined);
  });
}

for (const engine of ['playwright', 'puppeteer']) {
  describe(`live view of a run (${engine})`, { skip: chromium.skip }, () => {
    let svc: TestService;
    let pages: PagesServer;
    let apiKey: string;
    let wsBase: string;

    before(async () => {
      pages = await startPagesServer();
      svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_ENGINE: engine });
      ({ apiKey } = await setupAdmin(svc));
      wsBase = svc.baseUrl.replace('http:', 'ws:');
    });
    after(async () => {
      await svc?.close();
      await pages?.close();
    });

    it('streams frames of the headless run, names each action with its element\'s box, then ends', async () => {
      const task = await svc.request('POST', '/api/tasks', {
        apiKey,
        body: {
          name: 'watched', mode: 'agent', url: `${pages.origin}/animated.html`,
          actions: [
            { type: 'wait', value: '1500' },
            { type: 'wait_selector', selector: '#box' },
            { type: 'wait', value: '1500' },
          ],
        },
      });
      const started = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, headers: { prefer: 'respond-async' }, body: {} });
      assert.equal(started.status, 202);
      const seen = await watch(`${wsBase}/api/executions/${started.body.executionId}/live`, apiKey);

      assert.equal(seen.messages[0].type, 'hello');
      assert.ok(seen.frames.length >= 3, `frames seen: ${seen.frames.length}`);
      for (const frame of seen.frames) assert.deepEqual([...frame.subarray(0, 2)], [0xff, 0xd8], 'a JPEG');
      const viewport = seen.messages.find((m) => m.type === 'viewport');
      assert.deepEqual(viewport && { width: viewport.width, height: viewport.height }, { width: 1280, height: 720 });
      const waited = seen.messages.find((m) => m.type === 'action' && m.index === 1);
      assert.deepEqual(waited && { label: waited.label, actionType: waited.actionType, selector: waited.selector }, { label: 'action 2 (wait_selector)', actionType: 'wait_selector', selector: '#box' });
      const outline = seen.messages.find((m) => m.type === 'outline' && m.index === 1);
      assert.ok(outline, 'the awaited element is outlined');
      assert.equal(outline.box.width, 80);
      assert.equal(outline.box.height, 80);
      assert.deepEqual(seen.messages.at(-1), { type: 'end', status: 'success' });
      assert.equal(seen.closeCode, 1000);
    });

    it('answers the end of a finished run and refuses the anonymous and the unknown', async () => {
      const task = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'quick', mode: 'agent', url: `${pages.origin}/`, actions: [] } });
      const run = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, body: {} });
      const seen = await watch(`${wsBase}/api/executions/${run.body.executionId}/live`, apiKey);
      assert.deepEqual(seen.messages, [{ type: 'end', status: 'success' }]);
      assert.equal(seen.frames.length, 0);
      assert.equal(await refusedWith(`${wsBase}/api/executions/${run.body.executionId}/live`), 401);
      assert.equal(await refusedWith(`${wsBase}/api/executions/exec_nope/live`, { 'x-api-key': apiKey }), 404);
      assert.equal(await refusedWith(`${wsBase}/api/nothing-here`, { 'x-api-key': apiKey }), 404);
    });
  });
}
