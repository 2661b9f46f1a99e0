// The editor's Repairs tab (README "Healing"): a run on a changed page proposed a repair; the tab shows the old and
// new selector, the score and the element's screenshot, and Accept gives the task the new selector as a new version.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { serveVariants, type VariantServer } from '../support/healing-variants.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard repairs: ${skip}`);

describe('dashboard: proposed repairs in the task editor', { skip }, () => {
  let svc: TestService;
  let site: VariantServer;
  let dashboard: DashboardSession;
  let apiKey: string;
  let taskId: string;

  before(async () => {
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    site = await serveVariants();
    ({ apiKey } = await setupAdmin(svc));
    const created = await svc.request('POST', '/api/tasks', {
      apiKey,
      body: { name: 'Shop email', url: `${site.origin}/current`, mode: 'agent', actions: [{ type: 'type', selector: '#email', value: 'me@example.com', timeoutMs: 1500 }] },
    });
    assert.equal(created.status, 200, created.text);
    taskId = created.body.id;
    for (const variant of [{ name: 'original', mutations: [] }, { name: 'renamed', mutations: ['ids', 'classes'] }] as const) {
      site.show({ ...variant, mutations: [...variant.mutations] });
      const ran = await svc.request('POST', `/api/tasks/${taskId}/api`, { apiKey });
      assert.equal(ran.body.status, 'success', ran.text);
    }
    dashboard = await openDashboard(svc.baseUrl, `/tasks/${taskId}`, 'Shop email');
  });
  after(async () => {
    await dashboard?.browser.close();
    await site?.close();
    await svc?.close();
  });

  it('shows the proposed repair with its screenshot, and Accept saves the new selector as a version', async () => {
    const { page } = dashboard;
    await page.getByRole('tab', { name: 'Repairs' }).click();
    const list = page.getByRole('list', { name: 'Repairs, newest first' });
    await list.waitFor({ timeout: 30_000 });
    const text = await list.innerText();
    assert.match(text, /Action 1/);
    assert.match(text, /#email/);
    assert.match(text, /#user-mail/);
    assert.match(text, /Proposed/);
    const shot = list.getByRole('img', { name: 'The element of action 1 as repaired' });
    await shot.waitFor();
    assert.ok(await shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the screenshot loads');
    await list.getByRole('button', { name: 'Accept' }).click();
    await list.getByText('Accepted').waitFor({ timeout: 30_000 });
    const task = (await svc.request('GET', `/api/tasks/${taskId}`, { apiKey })).body;
    assert.equal(task.actions[0].selector, '#user-mail');
    assert.equal(task.versions.length, 1);
  });
});
