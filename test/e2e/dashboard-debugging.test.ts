// Debugging a run in the dashboard, in real Chromium against the real service and local pages: "Run with variables"
// with a trace, the failed action highlighted in the editor with its error, the failure screenshot in the run and
// the execution, "Re-run" with the same variables, and the run's trace opened in the trace viewer the service serves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard debugging: ${skip}`);

const imageLoaded = (page: Page, name: string) =>
  page.getByRole('img', { name }).first().evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);

describe('dashboard: debugging a run', { skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let session: DashboardSession;
  let taskId: string;
  let executionId: string;

  before(async () => {
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    pages = await startPagesServer();
    ({ apiKey } = await setupAdmin(svc));
    const created = await svc.request('POST', '/api/tasks', {
      apiKey,
      body: {
        name: 'Greets then fails', mode: 'agent', url: `${pages.origin}/`, variables: { who: 'Ada' },
        actions: [
          { type: 'type', selector: '#name', value: '{$who}' },
          { type: 'click', selector: '#greet' },
          { type: 'click', selector: '#missing', timeoutMs: 1000 },
        ],
      },
    });
    taskId = created.body.id;
    session = await openDashboard(svc.baseUrl, `/tasks/${taskId}`, 'Greets then fails');
  });
  after(async () => {
    await session?.browser.close();
    await pages?.close();
    await svc?.close();
  });

  it('runs with variables from a form and a trace, then highlights the failed action with its error and shows the screenshot', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Run with variables…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run with variables' });
    const who = dialog.getByLabel('who');
    assert.equal(await who.inputValue(), 'Ada');
    await who.fill('Grace');
    await dialog.getByLabel('Record a Playwright trace of this run').check();
    await dialog.getByRole('button', { name: 'Run' }).click();

    const panel = page.locator('.run-panel');
    await panel.locator('.badge.status-error').waitFor({ timeout: 60_000 });
    const failed = page.locator('.action-card.failed');
    await failed.waitFor();
    assert.equal(await page.locator('.action-card').nth(2).evaluate((card) => card.classList.contains('failed')), true);
    assert.match(await failed.locator('.action-failure').textContent() ?? '', /The last run failed here: Action 3 \(click\)/);
    await panel.getByRole('img', { name: 'Screenshot of the page when the run failed' }).waitFor();
    assert.equal(await imageLoaded(page, 'Screenshot of the page when the run failed'), true);
    executionId = (await panel.getByRole('link', { name: 'Open execution' }).getAttribute('title'))!;
    const record = await svc.request('GET', `/api/executions/${executionId}`, { apiKey });
    assert.deepEqual(record.body.variables, { who: 'Grace' });
    assert.match(record.body.result.trace, /\.zip$/);
  });

  it('shows the failure screenshot in the execution, opens the task with the action highlighted, and re-runs with the same variables', async () => {
    const { page } = session;
    await page.goto(`/executions/${executionId}`);
    await page.getByRole('heading', { name: 'Greets then fails', level: 1 }).waitFor();
    await page.getByRole('img', { name: 'Screenshot of the page when the run failed' }).waitFor();
    assert.equal(await imageLoaded(page, 'Screenshot of the page when the run failed'), true);

    await page.getByRole('button', { name: 'Re-run' }).click();
    await page.locator('.run-panel .badge.status-error').waitFor({ timeout: 60_000 });
    const again = (await page.locator('.run-panel').getByRole('link', { name: 'Open execution' }).getAttribute('title'))!;
    assert.notEqual(again, executionId);
    assert.deepEqual((await svc.request('GET', `/api/executions/${again}`, { apiKey })).body.variables, { who: 'Grace' });

    await page.getByRole('link', { name: 'Open task' }).click();
    await page.getByRole('heading', { name: 'Greets then fails', level: 1 }).waitFor();
    await page.locator('.action-card.failed').waitFor();
    assert.match(await page.locator('.action-card.failed .action-title').textContent() ?? '', /#missing/);
  });

  it('"Run to here" runs the actions up to the chosen one and shows the page, variables and log in a side panel', async () => {
    const { page } = session;
    await page.goto(`/tasks/${taskId}`);
    await page.getByRole('heading', { name: 'Greets then fails', level: 1 }).waitFor();
    await page.locator('.action-card').nth(1).getByRole('button', { name: /^Run to here/ }).click();
    const panel = page.getByRole('complementary', { name: 'Run to action 2' });
    await panel.locator('.badge.status-success').waitFor({ timeout: 60_000 });
    await panel.getByRole('img', { name: 'The page after action 2' }).waitFor();
    assert.equal(await imageLoaded(page, 'The page after action 2'), true);
    assert.deepEqual(JSON.parse(await panel.getByLabel('Variables').textContent() ?? ''), { who: 'Ada' });
    const log = await panel.getByRole('log', { name: 'Run to here log' }).innerText();
    assert.match(log, /action 2 \(click\): #greet/);
    assert.match(log, /stopped after action 2/);
    assert.doesNotMatch(log, /#missing/, 'action 3 never ran');
    const before = (await svc.request('GET', '/api/executions', { apiKey })).body.length;
    assert.equal(before, 2, 'run to here stores no execution (the two are the runs above)');
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
  });

  it('"Run to here" shows the page live while it runs, then the page where it stopped', async () => {
    const { page } = session;
    const slow = await svc.request('POST', '/api/tasks', { apiKey, body: {
      name: 'Waits a while', mode: 'agent', url: `${pages.origin}/`,
      actions: [{ type: 'type', selector: '#name', value: 'Live' }, { type: 'wait', value: '8000' }, { type: 'click', selector: '#greet' }],
    } });
    await page.goto(`/tasks/${slow.body.id}`);
    await page.getByRole('heading', { name: 'Waits a while', level: 1 }).waitFor();
    await page.locator('.action-card').nth(1).getByRole('button', { name: /^Run to here/ }).click();
    const panel = page.getByRole('complementary', { name: 'Run to action 2' });
    const live = panel.getByRole('region', { name: 'Live view' });
    await live.locator('.live-frame img').waitFor({ timeout: 30_000 });
    assert.equal(await panel.getByRole('status').first().innerText(), 'Running…', 'the frame came while it ran');
    // The element comes with its first frame's address; the picture decodes a moment later.
    const decoded = await live.locator('.live-frame img').evaluate(async (img) => {
      for (let i = 0; i < 100 && !((img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return (img as HTMLImageElement).naturalWidth > 0;
    });
    assert.equal(decoded, true, 'the live frame is a picture');
    await live.getByText('Now: action 2 (wait)').waitFor({ timeout: 30_000 });
    await panel.locator('.badge.status-success').waitFor({ timeout: 60_000 });
    await live.waitFor({ state: 'detached' });
    assert.equal(await imageLoaded(page, 'The page after action 2'), true, 'the screenshot stays');
    await panel.getByRole('button', { name: 'Close' }).click();
  });

  it('opens the run\'s trace in the viewer served by the service, which shows the run\'s actions', async () => {
    const { page } = session;
    await page.goto(`/executions/${executionId}`);
    const link = page.getByRole('link', { name: 'Open trace' });
    await link.waitFor();
    const href = (await link.getAttribute('href'))!;
    assert.match(href, /^\/trace-viewer\/\?trace=%2Fapi%2Fdata%2Fcaptures%2F/);
    const [viewer] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await viewer.waitForLoadState('domcontentloaded');
    assert.equal(new URL(viewer.url()).origin, new URL(svc.baseUrl).origin, viewer.url());
    // The action list of the viewer names what the run did, selectors included.
    await viewer.getByText('#greet').first().waitFor({ timeout: 60_000 });
    await viewer.getByText('#missing').first().waitFor();
    const text = await viewer.locator('body').innerText();
    assert.match(text, /Click/);
    assert.match(text, /#name/);
    await viewer.close();

    // Only a signed-in caller gets the viewer.
    const anonymous = await fetch(`${svc.baseUrl}/trace-viewer/index.html`);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(session.problems, []);
  });
});
