// BROWSER_WS_ENDPOINT pointing at a bare Chromium's DevTools port (as a browser grid offers it), through both
// engines: Playwright with the ws:// URL Chromium printed, Puppeteer with the http:// form. A TCP relay in
// front of the browser cuts the connection while the browser keeps running: the run in flight fails saying
// why, the next run reconnects, and no context of ours is left behind on the remote browser.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import puppeteer from 'puppeteer';
import { chromiumOrSkip } from '../../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../../support/service.js';
import { waitFor } from '../../../testing/browser/chromium-processes.js';
import { launchCdpChromium, startTcpRelay, type CdpChromium, type TcpRelay } from './remote-browsers.js';

const found = chromiumOrSkip();

for (const engine of ['playwright', 'puppeteer'] as const) {
  describe(`BROWSER_WS_ENDPOINT: ${engine} on a Chromium DevTools endpoint`, { skip: found.skip }, () => {
    let pages: PagesServer;
    let remote: CdpChromium;
    let relay: TcpRelay;
    let svc: TestService;
    let apiKey: string;
    const api = (method: string, url: string, body?: unknown) => svc.request(method, url, { apiKey, body });
    const createTask = async (task: Record<string, unknown>) => {
      const res = await api('POST', '/api/tasks', { name: 'cdp', mode: 'agent', actions: [], ...task });
      assert.equal(res.status, 200, res.text);
      return res.body.id as string;
    };
    /** Contexts on the remote browser besides its default one, as any DevTools client sees them. */
    const remoteContexts = async () => {
      const observer = await puppeteer.connect({ browserWSEndpoint: remote.wsEndpoint });
      try {
        return observer.browserContexts().filter((context) => context.id !== undefined).length;
      } finally {
        await observer.disconnect();
      }
    };

    before(async () => {
      pages = await startPagesServer();
      remote = await launchCdpChromium(found.path!);
      relay = await startTcpRelay(remote.port);
      const endpoint = engine === 'playwright'
        ? remote.wsEndpoint.replace(`:${remote.port}/`, `:${relay.port}/`)
        : `http://127.0.0.1:${relay.port}`;
      svc = await startService({ BROWSER_ENGINE: engine, BROWSER_WS_ENDPOINT: endpoint, ALLOW_PRIVATE_NETWORKS: 'true' });
      ({ apiKey } = await setupAdmin(svc));
    });
    after(async () => {
      await svc?.close();
      await relay?.close();
      await remote?.close(); // waits until none of its processes is left
      await pages?.close();
    });

    it('runs a task on the remote browser without launching one', async () => {
      const id = await createTask({ url: `${pages.origin}/second.html`, extractionScript: 'return [document.title, innerWidth]', viewport: { width: 700, height: 500 } });
      const res = await api('POST', `/api/tasks/${id}/api`);
      assert.equal(res.body.status, 'success', res.text);
      assert.deepEqual(res.body.result.data, ['Second page', 700]);
      assert.equal(svc.service.services.browser.browserPid(), undefined, 'nothing was launched');
      assert.equal(await remoteContexts(), 0, 'the run\'s context was closed on the remote browser');
    });

    it('a dropped connection fails the run in flight, the next run reconnects, and no context is left behind', async () => {
      const slow = await createTask({ url: `${pages.origin}/slow?ms=20000`, timeoutMs: 60_000 });
      const started = Date.now();
      const inFlight = api('POST', `/api/tasks/${slow}/api`);
      await waitFor(() => pages.requests.some((r) => r.startsWith('/slow')), 10_000, 'the run to open the slow page');
      relay.cut();
      const failed = await inFlight;
      assert.equal(failed.body.status, 'error', failed.text);
      assert.match(failed.body.result.error.message, /connection to the remote browser at .* closed during the run/);
      assert.ok(Date.now() - started < 15_000, `ended after ${Date.now() - started} ms, not at its 60 s limit`);
      assert.equal(svc.service.services.browser.openContexts(), 0);

      const id = await createTask({ url: `${pages.origin}/index.html`, extractionScript: 'return document.title' });
      const next = await api('POST', `/api/tasks/${id}/api`);
      assert.equal(next.body.status, 'success', next.text);
      assert.equal(next.body.result.data, 'Fixture home');
      assert.equal(await remoteContexts(), 0, 'the context cut off with the old connection is gone too');
    });
  });
}
