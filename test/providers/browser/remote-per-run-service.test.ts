// BROWSER_REMOTE_MODE=per-run through the service, against a stand-in grid in front of a bare Chromium's
// DevTools endpoint, with both engines: runs at once each hold a session of their own (Puppeteer closing none
// of the other runs' contexts), nothing is left on the remote browser, and a run the grid turns away reports
// why, retryable, without the token. A bad BROWSER_REMOTE_MODE stops start-up with one line.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import puppeteer from 'puppeteer';
import { chromiumOrSkip } from '../../../testing/browser.contract.js';
import { waitFor } from '../../../testing/browser/chromium-processes.js';
import { startPagesServer, type PagesServer } from '../../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../../support/service.js';
import { startBrowserGrid, type BrowserGrid } from '../../stand-ins/browser-grid.js';
import { launchCdpChromium, type CdpChromium } from './remote-browsers.js';

const found = chromiumOrSkip();
const TOKEN = `tok-${crypto.randomBytes(12).toString('hex')}`;

for (const engine of ['playwright', 'puppeteer'] as const) {
  describe(`BROWSER_REMOTE_MODE=per-run: ${engine} through a grid in front of a DevTools endpoint`, { skip: found.skip }, () => {
    let pages: PagesServer;
    let remote: CdpChromium;
    let grid: BrowserGrid;
    let svc: TestService;
    let apiKey: string;
    const api = (method: string, url: string, body?: unknown) => svc.request(method, url, { apiKey, body });
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
      grid = await startBrowserGrid({ port: remote.port, path: new URL(remote.wsEndpoint).pathname });
      svc = await startService({
        BROWSER_ENGINE: engine, BROWSER_WS_ENDPOINT: grid.url(`/devtools/browser/session?token=${TOKEN}`),
        BROWSER_REMOTE_MODE: 'per-run', MAX_CONCURRENT_RUNS: '3', ALLOW_PRIVATE_NETWORKS: 'true',
      });
      ({ apiKey } = await setupAdmin(svc));
    });
    after(async () => {
      await svc?.close();
      await grid?.close();
      await remote?.close();
      await pages?.close();
    });

    it('runs at once each use a session of their own, closed at their end, leaving nothing on the browser', async () => {
      const slow = await api('POST', '/api/tasks', {
        name: 'slow', mode: 'agent', url: `${pages.origin}/slow?ms=2500`, actions: [], extractionScript: 'return document.title',
      });
      const before = grid.admitted;
      const run = () => api('POST', `/api/tasks/${slow.body.id}/api`);
      const first = run();
      // The others connect while the first run's context is open on the browser: theirs must leave it alone.
      await waitFor(() => pages.requests.filter((r) => r.startsWith('/slow')).length === 1, 10_000, 'the first run to open its page');
      const answers = await Promise.all([first, run(), run()]);
      for (const res of answers) {
        assert.equal(res.body.status, 'success', res.text);
        assert.equal(res.body.result.data, 'slow');
      }
      assert.equal(grid.admitted - before, 3);
      await waitFor(() => grid.active === 0, 3000, 'every session to close');
      assert.equal(await remoteContexts(), 0, 'no context of ours is left on the remote browser');
      assert.equal(svc.service.services.browser.openContexts(), 0);
    });

    it('a run the grid turns away ends as error saying why, retryable, without the token', async () => {
      const task = await api('POST', '/api/tasks', { name: 'quick', mode: 'agent', url: `${pages.origin}/second.html`, actions: [] });
      grid.refuseWith = 429;
      try {
        const res = await api('POST', `/api/tasks/${task.body.id}/api`);
        assert.equal(res.body.status, 'error', res.text);
        assert.match(res.body.result.error.message, /turned the run's session away: it answered HTTP 429 Too Many Requests .*can be retried later/);
        assert.ok(!res.text.includes(TOKEN));
        const outcome = await svc.service.services.browser.withContext({}, async () => 'never');
        assert.equal(outcome.status, 'error');
        assert.equal((outcome as { error: { retryable?: boolean } }).error.retryable, true);
      } finally {
        grid.refuseWith = undefined;
      }
      const next = await api('POST', `/api/tasks/${task.body.id}/api`);
      assert.equal(next.body.status, 'success', next.text);
    });
  });
}

describe('BROWSER_REMOTE_MODE: a bad value', () => {
  it('stops start-up with one line naming the variable and what it expects', async () => {
    await assert.rejects(startService({ BROWSER_REMOTE_MODE: 'sometimes' }), (error: Error) => {
      assert.match(error.message, /^Invalid configuration: BROWSER_REMOTE_MODE is "sometimes"; expected one of shared, per-run$/);
      return true;
    });
  });
});
