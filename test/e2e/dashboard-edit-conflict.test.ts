// Edit conflicts in the dashboard (issue 24, 5a): the task editor saves with If-Match; when the task was saved
// elsewhere meanwhile it shows "Changed elsewhere" with Reload (take theirs) and Overwrite (keep mine, theirs kept
// as a version). The settings' Capacity section shows GET /api/capabilities (issue 24, 4).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard edit conflicts: ${skip}`);

describe('dashboard: a task changed elsewhere while it is edited', { skip }, () => {
  let svc: TestService;
  let dashboard: DashboardSession;
  let apiKey: string;
  let taskId: string;

  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
    const created = await svc.request('POST', '/api/tasks', {
      apiKey, body: { name: 'Shared task', description: 'as stored', url: 'https://example.com/', mode: 'agent', actions: [] },
    });
    assert.equal(created.status, 200, created.text);
    taskId = created.body.id;
    dashboard = await openDashboard(svc.baseUrl, `/tasks/${taskId}`, 'Shared task');
  });
  after(async () => {
    await dashboard?.browser.close();
    await svc?.close();
  });

  const description = () => dashboard.page.getByLabel('Description');
  const conflict = () => dashboard.page.getByRole('alert').filter({ hasText: 'Changed elsewhere' });
  const stored = async () => (await svc.request('GET', `/api/tasks/${taskId}`, { apiKey })).body;
  const changeElsewhere = async (text: string) => {
    const res = await svc.request('PATCH', `/api/tasks/${taskId}`, { apiKey, body: { description: text } });
    assert.equal(res.status, 200, res.text);
  };
  /** The 412s these tests provoke are expected; anything else the page met is a problem. */
  const unexpected = () => dashboard.problems.filter((problem) => !/answered 412$/.test(problem));

  it('saves as before when nothing changed elsewhere', async () => {
    await description().fill('first edit');
    await dashboard.page.getByRole('button', { name: 'Save', exact: true }).click();
    await dashboard.page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    assert.equal((await stored()).description, 'first edit');
    assert.deepEqual(unexpected(), []);
  });

  it('shows "Changed elsewhere" on save, and Overwrite keeps mine with theirs as a version', async () => {
    await description().fill('mine');
    await changeElsewhere('theirs');
    await dashboard.page.getByRole('button', { name: 'Save', exact: true }).click();
    await conflict().waitFor();
    assert.equal((await stored()).description, 'theirs', 'the refused save changed nothing');
    await conflict().getByRole('button', { name: 'Overwrite' }).click();
    await conflict().waitFor({ state: 'hidden' });
    await dashboard.page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    const task = await stored();
    assert.equal(task.description, 'mine');
    assert.equal(task.versions[0].snapshot.description, 'theirs', 'theirs is kept in Versions');
    assert.deepEqual(unexpected(), []);
  });

  it('Reload takes theirs and drops my edits; the next save goes through', async () => {
    await description().fill('mine again');
    await changeElsewhere('theirs again');
    await dashboard.page.getByRole('button', { name: 'Save', exact: true }).click();
    await conflict().waitFor();
    await conflict().getByRole('button', { name: 'Reload' }).click();
    await conflict().waitFor({ state: 'hidden' });
    assert.equal(await description().inputValue(), 'theirs again');
    await description().fill('after reload');
    await dashboard.page.getByRole('button', { name: 'Save', exact: true }).click();
    await dashboard.page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    assert.equal((await stored()).description, 'after reload');
    assert.equal(await conflict().count(), 0);
    assert.deepEqual(unexpected(), []);
  });

  it('shows the run limits and how they were computed under Settings > Capacity', async () => {
    await dashboard.page.goto('/settings#capacity');
    const section = dashboard.page.getByRole('region', { name: 'Capacity' });
    await section.getByTestId('max-concurrent-runs').waitFor();
    const capabilities = (await svc.request('GET', '/api/capabilities', { apiKey })).body;
    assert.match(await section.getByTestId('max-concurrent-runs').innerText(), new RegExp(`^${capabilities.runs.maxConcurrentRuns}\\b`));
    assert.match(await section.getByTestId('limit-explanation').innerText(), /by CPU .* by memory/);
    assert.match(await section.getByTestId('queue-fill').innerText(), /0 of 100 waiting/);
    await section.getByText('playwright (in use)').waitFor();
    assert.deepEqual(unexpected(), []);
  });
});
