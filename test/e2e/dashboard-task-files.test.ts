// The task editor's Files tab (README "Task files") and the downloads on the execution screen (README "Downloads"),
// in Chromium against the real service: add a file, see it listed, delete it; a run's download is listed with
// the run's ZIP link, and both serve the right bytes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { downloadBytes } from '../../testing/browser/pages-server.js';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard task files: ${skip}`);

describe('dashboard: task files and downloads', { skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let dashboard: DashboardSession;
  let apiKey: string;
  let taskId: string;

  before(async () => {
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    pages = await startPagesServer();
    ({ apiKey } = await setupAdmin(svc));
    const created = await svc.request('POST', '/api/tasks', {
      apiKey, body: { name: 'Report grabber', url: `${pages.origin}/files.html`, mode: 'agent', actions: [{ type: 'download', selector: '#download' }] },
    });
    assert.equal(created.status, 200, created.text);
    taskId = created.body.id;
    dashboard = await openDashboard(svc.baseUrl, `/tasks/${taskId}`, 'Report grabber');
  });
  after(async () => {
    await dashboard?.browser.close();
    await pages?.close();
    await svc?.close();
  });

  it('the Files tab adds a file (its name made safe), lists it and deletes it', async () => {
    const { page } = dashboard;
    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByText('No file yet.').waitFor();
    await page.getByLabel('Add files to the task').setInputFiles({ name: 'my form.txt', mimeType: 'text/plain', buffer: Buffer.from('hello form') });
    const list = page.getByRole('list', { name: 'Task files' });
    await list.getByText('my_form.txt').waitFor({ timeout: 30_000 });
    const listed = await svc.request('GET', `/api/tasks/${taskId}/files`, { apiKey });
    assert.deepEqual(listed.body.files.map((f: { name: string; size: number }) => [f.name, f.size]), [['my_form.txt', 10]]);
    await list.getByRole('button', { name: 'Delete my_form.txt' }).click();
    await page.getByText('No file yet.').waitFor({ timeout: 30_000 });
    assert.deepEqual((await svc.request('GET', `/api/tasks/${taskId}/files`, { apiKey })).body.files, []);
    assert.deepEqual(dashboard.problems, []);
  });

  it('the execution screen lists a run\'s download and links the run\'s ZIP', async () => {
    const run = await svc.request('POST', `/api/tasks/${taskId}/api`, { apiKey });
    assert.equal(run.body.status, 'success', run.text);
    const { page } = dashboard;
    await page.goto(`/executions/${run.body.executionId}`);
    const downloads = page.getByRole('list', { name: 'Files the run downloaded' });
    const link = downloads.getByRole('link', { name: 'report.bin' });
    await link.waitFor({ timeout: 30_000 });
    const bytes = await page.evaluate(async (href) => [...new Uint8Array(await (await fetch(href)).arrayBuffer())], (await link.getAttribute('href'))!);
    assert.ok(Buffer.from(bytes).equals(downloadBytes(70000)), 'the link serves the downloaded file');
    const zip = page.getByRole('link', { name: 'Download all files (ZIP)' });
    assert.equal(await zip.getAttribute('href'), `/api/executions/${run.body.executionId}/files.zip`);
    const magic = await page.evaluate(async (href) => [...new Uint8Array(await (await fetch(href)).arrayBuffer()).slice(0, 4)], (await zip.getAttribute('href'))!);
    assert.deepEqual(magic, [0x50, 0x4b, 0x03, 0x04]);
  });
});
