// "Import tasks…" on the tasks screen, in real Chromium against the real service: the replaced product's export
// (test/fixtures/replaced-product/tasks-export.json) is imported with what each task left out shown; an export
// that cannot be mapped shows each refused task on a line and imports nothing; the editor shows get_content.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { makeTempDir, setupAdmin, startService, type TestService } from '../support/service.js';

const EXPORT_FILE = fileURLToPath(new URL('../fixtures/replaced-product/tasks-export.json', import.meta.url));
const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard tasks import: ${skip}`);

describe('dashboard: importing tasks', { skip }, () => {
  let svc: TestService;
  let session: DashboardSession;
  let page: Page;
  let apiKey: string;

  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
    session = await openDashboard(svc.baseUrl, '/tasks', 'Tasks');
    page = session.page;
  });
  after(async () => {
    await session?.browser.close();
    await svc?.close();
  });

  it("imports the replaced product's export and lists the tasks", async () => {
    await page.locator('#import-file').setInputFiles(EXPORT_FILE);
    const notice = page.locator('.tasks-import .notice');
    await notice.waitFor();
    assert.match(await notice.textContent() ?? '', /Created 3, replaced 0, skipped 0\./);
    for (const name of ['Shop list', 'Search form', 'Title (scrape)']) {
      await page.getByRole('link', { name, exact: true }).waitFor();
    }
    assert.equal((await svc.request('GET', '/api/tasks/list', { apiKey })).body.tasks.length, 3);
  });

  it('shows each task that cannot be mapped on its own line, and imports nothing', async () => {
    const file = path.join(await makeTempDir(), 'bad.json');
    await writeFile(file, JSON.stringify([
      { id: 'x1', name: 'Loops', url: 'https://example.com/', actions: [{ type: 'while', value: 'true' }, { type: 'end' }] },
      { id: 'x2', name: 'Merge', url: 'https://example.com/', actions: [{ type: 'merge', value: 'a,b' }] },
    ]));
    await page.locator('#import-file').setInputFiles(file);
    const items = page.locator('.tasks-import .error-box li');
    await items.nth(2).waitFor();
    assert.match(await page.locator('.tasks-import .error-box strong').textContent() ?? '', /IMPORT_UNMAPPED/);
    assert.match(await items.nth(1).textContent() ?? '', /^task 1 "Loops" \(id x1\): action 1 \(while\)/);
    assert.match(await items.nth(2).textContent() ?? '', /^task 2 "Merge" \(id x2\): action 1 \(merge\)/);
    assert.equal((await svc.request('GET', '/api/tasks/list', { apiKey })).body.tasks.length, 3);
  });

  it('the editor shows an imported get_content action by its name', async () => {
    await page.getByRole('link', { name: 'Shop list', exact: true }).click();
    await page.getByText('Get content').first().waitFor();
    assert.deepEqual(session.problems.filter((p) => p !== 'POST /api/tasks/import answered 422'), [], 'nothing but the refusal asked for');
  });
});
