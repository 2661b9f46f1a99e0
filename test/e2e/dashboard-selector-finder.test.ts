// "Find selector" in the editor against the real inspector: it looks on the page the task reaches before the
// action being edited (an element only the earlier actions reveal is found), and says plainly when nothing matched.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard selector finder: ${skip}`);

describe('dashboard: Find selector on the page before the action', { skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let dashboard: DashboardSession;

  before(async () => {
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    pages = await startPagesServer();
    const { apiKey } = await setupAdmin(svc);
    const created = await svc.request('POST', '/api/tasks', {
      apiKey,
      body: {
        name: 'Greeting', url: `${pages.origin}/index.html`, mode: 'agent',
        actions: [
          { type: 'type', selector: '#name', value: 'Ada' },
          { type: 'click', selector: '#greet' }, // writes "Hello, Ada"
          { type: 'click', selector: '#increment' },
        ],
      },
    });
    assert.equal(created.status, 200, created.text);
    dashboard = await openDashboard(svc.baseUrl, `/tasks/${created.body.id}`, 'Greeting');
  });
  after(async () => {
    await dashboard?.browser.close();
    await pages?.close();
    await svc?.close();
  });

  const dialog = () => dashboard.page.getByRole('dialog', { name: 'Find selector' });
  async function find(hint: string): Promise<void> {
    await dialog().getByLabel(/CSS selector, or the element/).fill(hint);
    await dialog().getByRole('button', { name: 'Find', exact: true }).click();
    await dialog().getByRole('button', { name: 'Find', exact: true }).waitFor({ timeout: 90_000 }); // not "Searching…"
  }

  it('finds an element that the actions before the edited one reveal', async () => {
    const { page } = dashboard;
    await page.locator('.action-card').nth(2).locator('.action-title').click();
    await page.locator('.action-card').nth(2).getByRole('button', { name: 'Find selector' }).click();
    assert.match(await dialog().textContent() ?? '', /opens the task’s URL and runs actions 1 to 2/);
    await find('Hello, Ada');
    const list = dialog().getByRole('list', { name: 'Candidates' });
    await list.getByText('#greeting', { exact: true }).waitFor();
    assert.equal(await dialog().getByRole('alert').count(), 0);
  });

  it('says clearly when nothing matched, with the page it looked at', async () => {
    await find('An element this page does not have');
    const alert = dialog().getByRole('alert');
    await alert.getByText('Nothing matched').waitFor();
    assert.match(await alert.textContent() ?? '', /no element on the page reached before action 3 matches “An element this page does not have”/);
    assert.equal(await dialog().getByRole('list', { name: 'Candidates' }).count(), 0);
    await dialog().getByRole('img', { name: 'The page the inspector looked at' }).waitFor();
  });

  it('uses a found selector in the action', async () => {
    await find('Hello, Ada');
    await dialog().getByRole('listitem').filter({ hasText: '#greeting' }).getByRole('button', { name: 'Use' }).click();
    assert.equal(await dashboard.page.getByLabel('Selector', { exact: true }).inputValue(), '#greeting');
  });

  it('logged no page errors', () => {
    assert.deepEqual(dashboard.problems, []);
  });
});
