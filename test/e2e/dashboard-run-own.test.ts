// The editor's Run panel follows and cancels the run it started, not another caller's run of the same task
// that starts 50 ms later (it used to guess "the newest run of this task").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard run panel: ${skip}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('dashboard: the Run panel follows its own run', { skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let dashboard: DashboardSession;
  let apiKey: string;
  let taskId: string;

  before(async () => {
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', MAX_CONCURRENT_RUNS: '4' });
    pages = await startPagesServer();
    ({ apiKey } = await setupAdmin(svc));
    const created = await svc.request('POST', '/api/tasks', {
      apiKey,
      body: { name: 'Slow heading', url: `${pages.origin}/index.html`, mode: 'agent', actions: [{ type: 'wait', value: '8000' }] },
    });
    assert.equal(created.status, 200, created.text);
    taskId = created.body.id;
    dashboard = await openDashboard(svc.baseUrl, `/tasks/${taskId}`, 'Slow heading');
  });
  after(async () => {
    await dashboard?.browser.close();
    await pages?.close();
    await svc?.close();
  });

  /** The execution, once it has ended (the machine may be slow: up to 90 s). */
  async function finished(executionId: string): Promise<{ status: string; trigger: string }> {
    for (let i = 0; i < 180; i++) {
      const { body } = await svc.request('GET', `/api/executions/${executionId}`, { apiKey });
      if (!['queued', 'running'].includes(body.status)) return body;
      await sleep(500);
    }
    throw new Error(`${executionId} did not end`);
  }

  it('cancels only its own run while an API run of the same task, started 50 ms later, finishes', async () => {
    const { page } = dashboard;
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await sleep(50);
    const other = await svc.request('POST', `/api/tasks/${taskId}/api`, { apiKey, headers: { prefer: 'respond-async' } });
    assert.equal(other.status, 202, other.text);
    const otherId: string = other.body.executionId;

    const panel = page.getByRole('region', { name: 'Run' });
    await panel.getByRole('button', { name: 'Cancel run' }).click({ timeout: 30_000 });
    await panel.locator('.run-status .badge.status-cancelled').waitFor({ timeout: 60_000 });

    const runs = (await svc.request('GET', `/api/executions?taskId=${taskId}`, { apiKey })).body as Array<{ executionId: string; trigger: string }>;
    assert.equal(runs.length, 2, 'two runs of the task');
    const ownId = runs.find((r) => r.trigger === 'dashboard')!.executionId;
    assert.notEqual(ownId, otherId);
    const theirs = await finished(otherId);
    assert.deepEqual([theirs.status, theirs.trigger], ['success', 'api'], 'the other caller\'s run was left alone');
    const own = await finished(ownId);
    assert.deepEqual([own.status, own.trigger], ['cancelled', 'dashboard']);
    // The panel names the run it followed.
    const href = await panel.getByRole('link', { name: /execution/i }).getAttribute('href');
    assert.equal(href, `/executions/${encodeURIComponent(ownId)}`);
    assert.equal(await panel.locator('.run-status .badge.status-cancelled').count(), 1, 'the panel still shows its own run');
  });

  it('logged no page errors', () => {
    // The cancel answers 200; nothing else may fail.
    assert.deepEqual(dashboard.problems, []);
  });
});
