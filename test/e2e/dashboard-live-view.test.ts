// The execution page's Live view in real Chromium: frames of a headless run while it runs (the service's own
// Chromium, streamed over its WebSocket with the session cookie), the current action named and outlined, and the
// record shown once the run ended.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard live view: ${skip}`);

describe('dashboard: the live view of a running execution', { skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let dashboard: DashboardSession;
  let apiKey: string;

  before(async () => {
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    pages = await startPagesServer();
    ({ apiKey } = await setupAdmin(svc));
    dashboard = await openDashboard(svc.baseUrl, '/executions', 'Executions');
  });
  after(async () => {
    await dashboard?.browser.close();
    await pages?.close();
    await svc?.close();
  });

  it('shows frames of the headless run while it runs, names its action, then the ended record', async () => {
    const { page, problems } = dashboard;
    const task = await svc.request('POST', '/api/tasks', {
      apiKey,
      body: {
        name: 'Watched run', url: `${pages.origin}/animated.html`, mode: 'agent',
        actions: [{ type: 'wait', value: '500' }, { type: 'wait_selector', selector: '#box' }, { type: 'wait', value: '6000' }],
      },
    });
    const started = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, headers: { prefer: 'respond-async' }, body: {} });
    assert.equal(started.status, 202, started.text);
    const { executionId } = started.body;
    await page.goto(`/executions/${executionId}`);
    await page.getByRole('heading', { name: 'Live view' }).waitFor();

    const frame = page.locator('.live-frame');
    await page.waitForFunction(() => Number(document.querySelector('.live-frame')?.getAttribute('data-frames')) >= 5, undefined, { timeout: 30_000 });
    await frame.locator('img').waitFor();
    const running = await svc.request('GET', `/api/executions/${executionId}`, { apiKey });
    assert.equal(running.body.status, 'running', 'the frames came while the run ran');
    await page.getByText('action 3 (wait)').waitFor({ timeout: 30_000 });
    // A new frame's object URL may still be decoding: its size is read once it is.
    const size = await (await page.waitForFunction(() => {
      const img = document.querySelector('.live-frame img') as HTMLImageElement | null;
      return img && img.naturalWidth > 0 ? [img.naturalWidth, img.naturalHeight] : null;
    })).jsonValue();
    assert.deepEqual(size, [1280, 720]);

    // Once it ended, the page shows the stored record without the live view.
    await page.getByRole('heading', { name: 'Logs' }).waitFor();
    await page.getByRole('heading', { name: 'Live view' }).waitFor({ state: 'detached', timeout: 60_000 });
    assert.match(await page.locator('.facts').innerText(), /success/);
    assert.deepEqual(problems, []);
  });

  it('outlines the element of the action under way', async () => {
    const { page } = dashboard;
    const task = await svc.request('POST', '/api/tasks', {
      apiKey,
      body: {
        name: 'Outlined run', url: `${pages.origin}/index.html`, mode: 'agent',
        // A selector that appears late keeps the action under way (and its element outlined) for a while.
        actions: [{ type: 'wait', value: '1500' }, { type: 'javascript', value: 'setTimeout(() => { document.querySelector("#later-slot").innerHTML = "<b id=late>late</b>"; }, 2500)' },
          { type: 'wait_selector', selector: '#late' }, { type: 'hover', selector: '#greet' }, { type: 'wait', value: '3000' }],
      },
    });
    const started = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, headers: { prefer: 'respond-async' }, body: {} });
    await page.goto(`/executions/${started.body.executionId}`);
    await page.getByText('action 3 (wait_selector)').waitFor({ timeout: 30_000 });
    // Read in one go: the outline goes with its action.
    const box = await page.waitForFunction(() => {
      const outline = document.querySelector('.live-outline.action');
      const r = outline?.getBoundingClientRect();
      return r && r.width > 10 && r.height > 5 ? { width: r.width, height: r.height } : undefined;
    }, undefined, { timeout: 30_000 });
    assert.ok(await box.jsonValue());
  });
});
