// The editor's field mapping (README "Field mapping"): a task's mapping is shown and edited under Script & options,
// saved as `extract`; "Convert to script" replaces it with the equivalent extraction script.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard field mapping: ${skip}`);

describe('dashboard: field mapping in the task editor', { skip }, () => {
  let svc: TestService;
  let dashboard: DashboardSession;
  let apiKey: string;
  let taskId: string;
  const stored = async () => (await svc.request('GET', `/api/tasks/${taskId}`, { apiKey })).body;

  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
    const created = await svc.request('POST', '/api/tasks', {
      apiKey,
      body: { name: 'Products', url: 'https://shop.example/products', mode: 'http', actions: [], extract: { list: 'li.product', fields: [{ name: 'name', selector: 'a.name' }] } },
    });
    assert.equal(created.status, 200, created.text);
    taskId = created.body.id;
    dashboard = await openDashboard(svc.baseUrl, `/tasks/${taskId}`, 'Products');
  });
  after(async () => {
    await dashboard?.browser.close();
    await svc?.close();
  });

  it('edits the mapping (a field with an attribute and a type) and saves it', async () => {
    const { page } = dashboard;
    await page.getByRole('tab', { name: 'Script & options' }).click();
    await page.getByRole('heading', { name: 'Field mapping' }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Rows (CSS selector)' }).inputValue(), 'li.product');
    assert.equal(await page.getByRole('heading', { name: 'Extraction script' }).count(), 0, 'mode http has no script to edit');
    await page.getByRole('button', { name: 'Add a field' }).click();
    await page.getByRole('textbox', { name: 'Name of field 2' }).fill('link');
    await page.getByRole('textbox', { name: 'Selector of field 2' }).fill('a.name');
    await page.getByRole('textbox', { name: 'Attribute of field 2' }).fill('href');
    await page.getByRole('combobox', { name: 'Type of field 2' }).selectOption('url');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
    assert.deepEqual((await stored()).extract, {
      list: 'li.product', fields: [{ name: 'name', selector: 'a.name' }, { name: 'link', selector: 'a.name', attribute: 'href', type: 'url' }],
    });
  });

  it('converts the mapping to its script (in a browser mode)', async () => {
    const { page } = dashboard;
    await page.getByRole('tab', { name: 'Canvas' }).click();
    await page.getByRole('combobox', { name: 'Mode' }).selectOption('scrape');
    await page.getByRole('tab', { name: 'Script & options' }).click();
    await page.getByRole('button', { name: 'Convert to script' }).click();
    await page.getByRole('heading', { name: 'Extraction script' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
    const task = await stored();
    assert.equal(task.extract, undefined);
    assert.equal(task.mode, 'scrape');
    assert.match(task.extractionScript, /"attribute": "href"/);
    assert.match(task.extractionScript, /applyMapping/);
  });
});
