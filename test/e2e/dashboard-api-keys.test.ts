// Settings > API keys in the dashboard: a key made there (scopes, one task) is shown once and works through the API
// within its limits; the list shows its use; revoking it (asked first) refuses it at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard API keys: ${skip}`);

describe('dashboard: named API keys', { skip }, () => {
  let svc: TestService;
  let dashboard: DashboardSession;
  let apiKey: string;
  const taskIds: string[] = [];

  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
    for (const name of ['Prices', 'Stock']) {
      taskIds.push((await svc.request('POST', '/api/tasks', { apiKey, body: { name, url: 'https://example.com/', mode: 'http', actions: [] } })).body.id);
    }
    dashboard = await openDashboard(svc.baseUrl, '/settings', 'Settings');
  });
  after(async () => {
    await dashboard?.browser.close();
    await svc?.close();
  });

  const section = () => dashboard.page.locator('#keys');

  it('creates a key limited to one task, shows it once, and the key holds just that', async () => {
    const keys = section();
    await keys.getByLabel('Name').fill('prices-bot');
    await keys.getByLabel(/^run:/).check();
    await keys.getByLabel('Limit to tasks').selectOption([taskIds[0]!]);
    await keys.getByRole('button', { name: 'Create key' }).click();
    const shown = keys.getByRole('textbox', { name: /The key prices-bot: copy it now/ });
    await shown.waitFor();
    const key = await shown.inputValue();
    assert.match(key, /^tlkn_/);

    assert.equal((await svc.request('GET', `/api/tasks/${taskIds[0]}`, { apiKey: key })).status, 200);
    assert.equal((await svc.request('GET', `/api/tasks/${taskIds[1]}`, { apiKey: key })).status, 403);
    assert.equal((await svc.request('PATCH', `/api/tasks/${taskIds[0]}`, { apiKey: key, body: { name: 'x' } })).status, 403, 'no write scope');

    await keys.getByRole('button', { name: 'Done' }).click();
    await dashboard.page.reload();
    const row = section().getByRole('row', { name: /prices-bot/ });
    await row.waitFor();
    const text = await row.textContent() ?? '';
    assert.match(text, /read, run/);
    assert.match(text, /Prices/);
    assert.doesNotMatch(text, /never/, 'its use shows');
    assert.equal((await dashboard.page.content()).includes(key), false, 'the key is not shown again');

    await row.getByRole('button', { name: 'Revoke prices-bot' }).click();
    await dashboard.page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Revoke' }).click();
    await section().getByRole('row', { name: /prices-bot/ }).getByText(/revoked/).waitFor();
    assert.equal((await svc.request('GET', `/api/tasks/${taskIds[0]}`, { apiKey: key })).status, 401);
  });
});
