// The studio in real Chromium against the real service and its own headless Chromium: a person records a click,
// typing (a password too) and a select on a local page through the live view, opens the recording in the editor,
// saves it as a task (its elements' fingerprints with it), and that task, run, does the same again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard studio: ${skip}`);

describe('dashboard: the studio records a task', { skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let dashboard: DashboardSession;
  let apiKey: string;

  before(async () => {
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    pages = await startPagesServer();
    ({ apiKey } = await setupAdmin(svc));
    dashboard = await openDashboard(svc.baseUrl, '/tasks', 'Tasks');
  });
  after(async () => {
    await dashboard?.browser.close();
    await pages?.close();
    await svc?.close();
  });

  it('records a click, typing and a select, opens them in the editor, and the saved task reproduces them', async () => {
    const { page, problems } = dashboard;
    await page.getByRole('link', { name: 'Studio' }).click();
    await page.getByRole('heading', { name: 'Studio', level: 1 }).waitFor();
    await page.getByLabel('Page URL').fill(`${pages.origin}/studio-order.html`);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const frame = page.locator('.live-frame img');
    await frame.waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Record' }).click();
    await page.getByRole('button', { name: 'Record', pressed: true }).waitFor();

    // The page's controls sit at fixed places of its 1280x720 viewport (see the fixture).
    const at = async (x: number, y: number) => {
      await frame.scrollIntoViewIfNeeded();
      const box = (await frame.boundingBox())!;
      const scale = box.width / 1280;
      await page.mouse.click(box.x + x * scale, box.y + y * scale);
    };
    const recorded = page.locator('ol.recorded > li');
    await at(100, 40);
    await page.keyboard.type('Ada');
    await at(100, 100);
    await page.keyboard.type('s3cret!');
    await at(100, 160);
    await page.getByRole('dialog', { name: 'Choose an option' }).getByRole('button', { name: 'Large' }).click();
    await at(100, 220);
    await recorded.nth(3).waitFor({ timeout: 30_000 });
    assert.deepEqual(await recorded.locator('> span').allInnerTexts(), [ // each with its other selectors to choose from
      'type "Ada" into #who', 'type "{$password}" into input[name="secret"]', 'choose "l" in [data-testid="size"]', 'click role=button[name="Place order"]',
    ]);

    await page.getByRole('button', { name: 'Open as a new task' }).click();
    await page.getByRole('heading', { name: 'New task', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });

    const tasks = await svc.request('GET', '/api/tasks', { apiKey });
    const task = tasks.body.find((t: any) => t.name === 'Recorded task');
    assert.ok(task, 'the recording was saved as a task');
    assert.equal(task.url, `${pages.origin}/studio-order.html`);
    assert.deepEqual(task.variables, { password: '' });
    assert.ok(!JSON.stringify(task).includes('s3cret'), 'the password is not stored');
    // Saved from the studio: its elements' fingerprints are stored before any run (healing), the select's script aside.
    const repairs = await svc.request('GET', `/api/tasks/${task.id}/repairs`, { apiKey });
    assert.deepEqual(repairs.body.fingerprints.map((f: any) => [f.actionIndex, f.selector]),
      [[0, '#who'], [1, 'input[name="secret"]'], [3, 'role=button[name="Place order"]']]);
    await svc.request('PATCH', `/api/tasks/${task.id}`, { apiKey, body: { extractionScript: 'return document.querySelector("#out").textContent' } });
    const run = await svc.request('POST', `/api/tasks/${task.id}/api`, { apiKey, body: { variables: { password: 'x' } } });
    assert.equal(run.body.status, 'success', JSON.stringify(run.body.result));
    assert.equal(run.body.result.data, 'Ada ordered l with a password');
    assert.deepEqual(problems, []);
  });
});
