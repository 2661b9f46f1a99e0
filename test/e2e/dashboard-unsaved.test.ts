// Unsaved editor changes are not lost silently: leaving by the top bar, "← Tasks", Back, logout or closing the
// tab asks first; staying keeps the draft; nothing is asked when nothing changed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard unsaved changes: ${skip}`);

describe('dashboard: leaving the editor with unsaved changes', { skip }, () => {
  let svc: TestService;
  let dashboard: DashboardSession;
  let apiKey: string;
  let taskId: string;
  const editorPath = () => `/tasks/${taskId}`;

  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
    const created = await svc.request('POST', '/api/tasks', {
      apiKey, body: { name: 'Careful edits', description: 'as stored', url: 'https://example.com/', mode: 'agent', actions: [] },
    });
    assert.equal(created.status, 200, created.text);
    taskId = created.body.id;
    dashboard = await openDashboard(svc.baseUrl, '/tasks', 'Tasks');
    // Reached inside the app, so Back stays in the app (a popstate, not a page load).
    await dashboard.page.getByRole('link', { name: 'Careful edits' }).click();
    await dashboard.page.getByRole('heading', { name: 'Careful edits', level: 1 }).waitFor();
  });
  after(async () => {
    await dashboard?.browser.close();
    await svc?.close();
  });

  const question = () => dashboard.page.getByRole('dialog', { name: 'Please confirm' });
  const description = () => dashboard.page.getByLabel('Description');
  const path = () => new URL(dashboard.page.url()).pathname;

  /** Asks, the user stays: the editor, its address and the draft are all still there. */
  async function leaveAndStay(leave: () => Promise<unknown>, how: string): Promise<void> {
    await leave();
    await question().getByText('unsaved changes').waitFor();
    await question().getByRole('button', { name: 'Stay' }).click();
    await question().waitFor({ state: 'hidden' });
    assert.equal(path(), editorPath(), `${how}: still at the editor's address`);
    assert.equal(await description().inputValue(), 'edited, not saved', `${how}: the draft is kept`);
    await dashboard.page.getByText('Unsaved changes').waitFor();
  }

  it('asks before leaving by the top bar, "← Tasks", Back and logout, and keeps the draft when the user stays', async () => {
    const { page } = dashboard;
    await description().fill('edited, not saved');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await leaveAndStay(() => nav.getByRole('link', { name: 'Executions' }).click(), 'top bar');
    await leaveAndStay(() => page.getByRole('link', { name: 'taskloom' }).click(), 'brand link');
    await leaveAndStay(() => page.getByRole('link', { name: '← Tasks' }).click(), '← Tasks');
    await leaveAndStay(() => page.evaluate(() => history.back()), 'Back');
    await leaveAndStay(() => page.getByRole('button', { name: 'Log out' }).click(), 'logout');
    assert.equal((await svc.request('GET', `/api/tasks/${taskId}`, { apiKey })).body.description, 'as stored');
  });

  it('asks before the tab closes (beforeunload) while changes are unsaved', async () => {
    const { page } = dashboard;
    const asked = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    assert.equal(dialog.type(), 'beforeunload');
    await dialog.dismiss();
    await page.getByText('Unsaved changes').waitFor();
    assert.equal(page.isClosed(), false, 'dismissing keeps the tab');
  });

  it('leaves when the user accepts, dropping the draft', async () => {
    const { page } = dashboard;
    await page.getByRole('link', { name: '← Tasks' }).click();
    await question().getByRole('button', { name: 'Leave without saving' }).click();
    await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Careful edits' }).click();
    await page.getByRole('heading', { name: 'Careful edits', level: 1 }).waitFor();
    assert.equal(await description().inputValue(), 'as stored');
  });

  it('does not ask when nothing changed, nor after a save', async () => {
    const { page } = dashboard;
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Executions' }).click();
    await page.getByRole('heading', { name: 'Executions', level: 1 }).waitFor();
    assert.equal(await question().count(), 0);

    await page.goBack();
    await page.getByRole('heading', { name: 'Careful edits', level: 1 }).waitFor();
    await description().fill('saved this time');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    await nav.getByRole('link', { name: 'Captures' }).click();
    await page.getByRole('heading', { name: 'Captures', level: 1 }).waitFor();
    assert.equal(await question().count(), 0);
    // Nothing unsaved: closing the tab asks nothing either.
    let asked = false;
    page.once('dialog', (dialog) => { asked = true; void dialog.dismiss(); });
    const closed = page.waitForEvent('close');
    await page.close({ runBeforeUnload: true });
    await closed;
    assert.equal(asked, false);
  });

  it('logged no page errors', () => {
    assert.deepEqual(dashboard.problems, []);
  });
});
