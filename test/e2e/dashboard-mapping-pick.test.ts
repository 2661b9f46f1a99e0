// Picking a field mapping on the live page from the editor (README "Field mapping"), in real Chromium against the
// real service and its own headless Chromium: a click on a row fills the rows' selector with its count, a click on
// a value inside a row fills a field, the preview shows the values read, and the saved mapping is what was picked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard mapping pick: ${skip}`);
const PAGE = '/field-mapping/products.html';

describe('dashboard: picking a field mapping on the page', { skip }, () => {
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
      apiKey, body: { name: 'Products', url: `${pages.origin}${PAGE}`, mode: 'scrape', actions: [], extract: { fields: [{ name: 'field1', selector: 'h1' }] } },
    });
    assert.equal(created.status, 200, created.text);
    taskId = created.body.id;
    dashboard = await openDashboard(svc.baseUrl, `/tasks/${taskId}`, 'Products');
  });
  after(async () => {
    await dashboard?.browser.close();
    await pages?.close();
    await svc?.close();
  });

  it('fills the rows and the fields from clicks on the live page, previews and saves them', async () => {
    const { page, problems } = dashboard;
    // Where the values are on the studio's 1280x720 page: read from the same page in a page of this browser.
    const probe = await dashboard.browser.newPage({ viewport: { width: 1280, height: 720 } });
    await probe.goto(`${pages.origin}${PAGE}`);
    const centreOf = async (selector: string) => {
      const box = (await probe.locator(selector).boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const price = await centreOf('[data-sku="B-2"] .price');
    const link = await centreOf('[data-sku="C-3"] a.name');
    await probe.close();

    await page.getByRole('tab', { name: 'Script & options' }).click();
    await page.getByRole('button', { name: 'Pick rows on the page' }).click();
    const frame = page.locator('.mapping-picker .live-frame img');
    await frame.waitFor({ timeout: 30_000 });
    const at = async (point: { x: number; y: number }) => {
      await frame.scrollIntoViewIfNeeded();
      const box = (await frame.boundingBox())!;
      const scale = box.width / 1280;
      await page.mouse.click(box.x + point.x * scale, box.y + point.y * scale);
    };
    const rows = page.getByRole('textbox', { name: 'Rows (CSS selector)' });
    await at(price);
    await page.getByRole('status').filter({ hasText: '3 rows match' }).waitFor({ timeout: 30_000 });
    assert.equal(await rows.inputValue(), 'li.product');

    await page.getByRole('button', { name: 'Pick field field1 on the page' }).click();
    await at(link);
    const selector1 = page.getByRole('textbox', { name: 'Selector of field 1' });
    for (let i = 0; i < 300 && (await selector1.inputValue()) !== 'a.name'; i++) await page.waitForTimeout(100);
    assert.equal(await selector1.inputValue(), 'a.name');
    assert.equal(await page.getByRole('textbox', { name: 'Name of field 1' }).inputValue(), 'name', 'a generated name takes the suggested one');
    assert.equal(await page.getByRole('textbox', { name: 'Attribute of field 1' }).inputValue(), 'href');
    assert.equal(await page.getByRole('combobox', { name: 'Type of field 1' }).inputValue(), 'url');

    await page.getByRole('button', { name: 'Add a field' }).click();
    await page.getByRole('button', { name: 'Pick field field2 on the page' }).click();
    await at(price);
    const selector2 = page.getByRole('textbox', { name: 'Selector of field 2' });
    for (let i = 0; i < 300 && (await selector2.inputValue()) !== 'span.price'; i++) await page.waitForTimeout(100);
    assert.equal(await selector2.inputValue(), 'span.price');
    assert.equal(await page.getByRole('textbox', { name: 'Name of field 2' }).inputValue(), 'price');
    await page.getByRole('combobox', { name: 'Type of field 2' }).selectOption('number');

    await page.getByRole('button', { name: 'Preview the data' }).click();
    const preview = page.getByRole('table', { name: 'Preview of the extracted values' });
    await preview.waitFor({ timeout: 30_000 });
    assert.deepEqual(await preview.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent))), [
      [`"${pages.origin}/items/alpha?ref=list"`, '1234.5'],
      ['"https://elsewhere.example/beta"', '-7'],
      ['null', 'null'],
    ]);

    await page.getByRole('button', { name: 'Close the page' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
    const task = (await svc.request('GET', `/api/tasks/${taskId}`, { apiKey })).body;
    assert.deepEqual(task.extract, {
      list: 'li.product',
      fields: [{ name: 'name', selector: 'a.name', attribute: 'href', type: 'url' }, { name: 'price', selector: 'span.price', type: 'number' }],
    });
    assert.deepEqual(problems, []);
  });
});
