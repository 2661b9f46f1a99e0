// BROWSER_REMOTE_MODE=per-run through the service, against a stand-in grid in front of a bare Chromium's
// DevTools endpoint, with both engines: runs at once each hold a session of their own (Puppeteer closing none
// of the other runs' contexts), nothing is left on the remote browser, and a run the grid turns away goes back to
// the queue with a backoff (said in its log), runs once the grid admits it, and fails saying why, without the
// token, once the grid stayed busy past the limit (shortened here). A bad BROWSER_REMOTE_MODE stops start-up
// with one line.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import puppeteer from 'puppeteer';
import { chromiumOrSkip } from '../../../testing/browser.contract.js';
import { waitFor } from '../../../testing/browser/chromium-processes.js';
import { startPagesServer, type PagesServer } from '../../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../../support/service.js';
import { startBrowserGrid, type BrowserGrid } from '../../stand-ins/browser-grid.js';
import { Registry } from '../../../kernel/registry.js';
import { plugins, providers } from '../../../app/built-ins.js';
import { createRunsPlugin } from '../../../plugins/runs/index.js';
import { launchCdpChromium, type CdpChromium } from './remote-browsers.js';

const found = chromiumOrSkip();
const TOKEN = `tok-${crypto.randomBytes(12).toString('hex')}`;

/** The built-in modules, with a grid's refusals retried after 300 then 600 ms, and the third one final. */
function shortBusyRetries(): Registry {
  const registry = new Registry();
  const busyRetry = { firstDelayMs: 300, maxDelayMs: 1000, maxTries: 2, maxMs: 60_000 };
  registry.addModule({ providers, plugins: plugins?.map((plugin) => (plugin.name === 'runs' ? createRunsPlugin({ busyRetry }) : plugin)) });
  return registry;
}

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
      }, undefined, { registry: shortBusyRetries() });
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

    it('a run the grid turns away is queued again with a backoff, and runs once it is admitted', async () => {
      const task = await api('POST', '/api/tasks', { name: 'quick', mode: 'agent', url: `${pages.origin}/second.html`, actions: [] });
      grid.refuseWith = 429;
      const refusedBefore = grid.refused;
      const res = svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey });
      await waitFor(() => grid.refused - refusedBefore >= 1, 10_000, 'the grid to turn the run away');
      grid.refuseWith = undefined;
      const answer = await res;
      assert.equal(answer.body.status, 'success', answer.text);
      const record = (await api('GET', `/api/executions/${answer.body.executionId}`)).body;
      const lines = record.logs.map((line: { message: string }) => line.message);
      assert.ok(lines.some((line: string) => /^the browser grid is busy: retrying in 0\.[36] s \(turned away 1 of at most 2 times\)$/.test(line)), lines.join('\n'));
      assert.equal(record.attempt, undefined, 'a grid\'s refusal is no attempt');
      assert.ok(!JSON.stringify(record).includes(TOKEN));
    });

    it('a grid that stays busy past the limit fails the run saying why, retryable, without the token', async () => {
      const task = await api('POST', '/api/tasks', { name: 'quick', mode: 'agent', url: `${pages.origin}/second.html`, actions: [] });
      grid.refuseWith = 429;
      try {
        const refusedBefore = grid.refused;
        const res = await api('POST', `/api/tasks/${task.body.id}/api`);
        assert.equal(res.body.status, 'error', res.text);
        assert.match(res.body.result.error.message, /^The browser grid stayed busy: it turned the run away 3 times over [\d.]+ s\. .*turned the run's session away: it answered HTTP 429 Too Many Requests .*can be retried later/);
        assert.equal(grid.refused - refusedBefore, 3, 'tried three times');
        assert.ok(!res.text.includes(TOKEN));
        const record = (await api('GET', `/api/executions/${res.body.executionId}`)).body;
        assert.equal(record.logs.filter((line: { message: string }) => line.message.startsWith('the browser grid is busy: retrying in')).length, 2);
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
