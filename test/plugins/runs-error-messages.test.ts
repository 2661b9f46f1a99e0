// Run errors as a person reads them, on both engines: no Playwright call log, no terminal colour codes, and
// every URL without its query values (they may be tokens), in the run's error and in its log lines alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cleanMessage } from '../../plugins/runs/runner/clean-message.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const SECRET = 'tok3n-s3cret';

describe('cleanMessage', () => {
  it('keeps the first line, without colour codes or the engine prefix, and URLs without query values', () => {
    const playwright = `page.goto: net::ERR_CONNECTION_REFUSED at http://shop.example/cart?session=${SECRET}&page=2\nCall log:\n` +
      `\u001b[2m  - navigating to "http://shop.example/cart?session=${SECRET}&page=2", waiting until "load"\u001b[22m\n`;
    assert.equal(cleanMessage(playwright), 'net::ERR_CONNECTION_REFUSED at http://shop.example/cart?session=***&page=***');
    assert.equal(cleanMessage('\u001b[31mError: boom\u001b[39m'), 'boom');
    assert.equal(cleanMessage(`see (https://user:pw@a.example/p?key=${SECRET}#frag).`), 'see (https://a.example/p?key=***).');
    assert.equal(cleanMessage('Timed out after 10 ms waiting for selector "#x" to click'), 'Timed out after 10 ms waiting for selector "#x" to click');
    assert.equal(cleanMessage('proxy http://127.0.0.1:3128 (px_1) and ws://h:1/?a=b'), 'proxy http://127.0.0.1:3128 (px_1) and ws://h:1/?a=***');
  });
});

for (const engine of ['playwright', 'puppeteer'] as const) {
  describe(`run errors (${engine})`, { skip: chromium.skip }, () => {
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

    /** Runs the task; resolves to its error message and every log line, after checking both are clean. */
    async function failedRun(task: Record<string, unknown>): Promise<string> {
      const created = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'errors', mode: 'agent', actions: [], ...task } });
      assert.equal(created.status, 200, created.text);
      const res = await svc.request('POST', `/api/tasks/${created.body.id}/api`, { apiKey });
      assert.equal(res.body.status, 'error', res.text);
      const record = await svc.request('GET', `/api/executions/${res.body.executionId}`, { apiKey });
      const texts = [res.body.result.error.message, ...record.body.logs.map((line: { message: string }) => line.message)];
      for (const text of texts) {
        assert.ok(!text.includes(SECRET), `no query value: ${text}`);
        assert.ok(!text.includes('\u001b'), `no colour codes: ${JSON.stringify(text)}`);
        assert.ok(!/call log/i.test(text) && !text.includes('\n'), `no call log: ${text}`);
      }
      return res.body.result.error.message;
    }

    it('a task URL that fails to open: one line, its query values hidden', async () => {
      // Port 1 is one Chromium refuses at once (ERR_UNSAFE_PORT): a failure with a call log on Playwright.
      const message = await failedRun({ url: `http://127.0.0.1:1/start?token=${SECRET}&lang=en` });
      assert.equal(message, 'Opening the task URL failed: net::ERR_UNSAFE_PORT at http://127.0.0.1:1/start?token=***&lang=***');
    });

    it('a navigate action that fails or times out', async () => {
      const refused = await failedRun({ url: `${pages.origin}/`, actions: [{ type: 'navigate', value: `http://127.0.0.1:1/next?key=${SECRET}` }] });
      assert.equal(refused, 'Action 1 (navigate): net::ERR_UNSAFE_PORT at http://127.0.0.1:1/next?key=***');
      const slow = await failedRun({
        url: `${pages.origin}/`, actions: [{ type: 'navigate', value: `${pages.origin}/slow?ms=5000&key=${SECRET}`, timeoutMs: 1000 }],
      });
      assert.equal(slow, `Action 1 (navigate): Timed out after 1000 ms waiting for navigation to ${pages.origin}/slow?ms=***&key=***`);
    });

    it('a selector that never shows: what was awaited, without the call log', async () => {
      const message = await failedRun({ url: `${pages.origin}/?token=${SECRET}`, actions: [{ type: 'click', selector: '#missing', timeoutMs: 1000 }] });
      assert.equal(message, 'Action 1 (click): Timed out after 1000 ms waiting for selector "#missing" to click');
    });
  });
}
