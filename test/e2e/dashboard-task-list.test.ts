// The task list with 1,000 tasks, in real Chromium against the real service: only the rows near the viewport are
// drawn, yet the table counts all of them for assistive technology, scrolls to the last one with the page's own
// scrollbar, lets Tab move past the drawn rows, keeps the focus of a row scrolled away, and its search finds any
// task.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const TASKS = 1000;

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard task list: ${skip}`);

describe('dashboard: the task list with 1,000 tasks', { skip }, () => {
  let svc: TestService;
  let session: DashboardSession;
  let page: Page;
  /** Task names in the list's order. */
  let names: string[];

  before(async () => {
    svc = await startService();
    const { apiKey } = await setupAdmin(svc);
    for (let i = 0; i < TASKS; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => svc.request('POST', '/api/tasks', { apiKey, body: {
        name: `Task ${i + j}`, description: `Collects the prices of catalogue page ${i + j}`,
        url: `https://shop.example.com/catalogue/${i + j}`, mode: 'agent', actions: [{ type: 'click', selector: '#next' }],
      } })));
    }
    names = ((await svc.request('GET', '/api/tasks/list', { apiKey })).body.tasks as { name: string }[]).map((t) => t.name);
    assert.equal(names.length, TASKS);
    session = await openDashboard(svc.baseUrl, '/tasks', 'Tasks');
    page = session.page;
  });
  after(async () => {
    await session?.browser.close();
    await svc?.close();
  });

  const table = () => page.getByRole('table', { name: 'Tasks' });
  const drawn = () => page.locator('.tasks-table tbody tr[aria-rowindex]');
  /** The row at `rowIndex` (the header is row 1, the first task row 2). */
  const rowAt = (rowIndex: number) => page.locator(`.tasks-table tbody tr[aria-rowindex="${rowIndex}"]`);

  it('draws a screenful, and the table counts all 1,000 tasks', async () => {
    await rowAt(2).waitFor();
    assert.equal(await table().getAttribute('aria-rowcount'), String(TASKS + 1));
    await page.getByText(`${TASKS} of ${TASKS}`, { exact: true }).waitFor();
    const count = await drawn().count();
    assert.ok(count >= 10 && count < 100, `rows drawn: ${count}`);
    assert.equal(await rowAt(2).locator('th').textContent(), names[0]);
  });

  it('scrolls to the last task with the page scrollbar, at the place the rows before it take', async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const last = rowAt(TASKS + 1);
    await last.waitFor();
    assert.equal(await last.locator('th').textContent(), names[TASKS - 1]);
    const box = await last.boundingBox();
    const viewport = page.viewportSize()!;
    assert.ok(box && box.y >= 0 && box.y + box.height <= viewport.height + 1, `last row at ${JSON.stringify(box)}`);
    // The spacers stand for exactly the rows not drawn: the last row sits 999 row heights below the first's place.
    const offset = await page.evaluate(() => {
      const body = document.querySelector('.tasks-table tbody')!;
      const rows = [...body.querySelectorAll('tr[aria-rowindex]')];
      const [first, last] = [rows[0]!.getBoundingClientRect().top, rows.at(-1)!.getBoundingClientRect().top];
      const pitch = (last - first) / (rows.length - 1);
      return { rows: (last - body.getBoundingClientRect().top) / pitch, drawn: rows.length };
    });
    assert.ok(Math.abs(offset.rows - (TASKS - 1)) < 1, `last row ${offset.rows} rows down`);
    assert.ok(offset.drawn < 100, `rows drawn at the end: ${offset.drawn}`);
  });

  it('moves focus with Tab from the last drawn row to the next one', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await rowAt(2).waitFor();
    const edge = Number(await drawn().last().getAttribute('aria-rowindex'));
    assert.ok(edge < TASKS + 1);
    // Focus scrolls the row into view; the rows after it are drawn before the next key.
    await rowAt(edge).getByRole('button', { name: /^Delete / }).focus();
    await rowAt(edge + 1).waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), names[edge - 1]);
  });

  it('gives the focus of a row scrolled away to the table, and Tab goes on from the rows drawn there', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await rowAt(2).getByRole('link').focus();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
    await page.waitForFunction(() => document.activeElement?.matches('table.tasks-table'));
    await rowAt(2).waitFor({ state: 'detached' });
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => Number(document.activeElement?.closest('tr')?.getAttribute('aria-rowindex')));
    assert.ok(focused > 400 && focused < 600, `Tab went to row ${focused}`);
  });

  it('finds one task among the 1,000 by search, and opens it by its link', async () => {
    await page.getByLabel('Search tasks').fill('Task 500');
    await page.getByText(`1 of ${TASKS}`, { exact: true }).waitFor();
    assert.equal(await table().getAttribute('aria-rowcount'), '2');
    const row = page.getByRole('row', { name: /Task 500\b/ });
    await row.waitFor();
    assert.match(await row.textContent() ?? '', /catalogue page 500/);
    await page.getByLabel('Search tasks').fill('');
    await page.getByText(`${TASKS} of ${TASKS}`, { exact: true }).waitFor();
    assert.equal(await table().getAttribute('aria-rowcount'), String(TASKS + 1));
    await page.getByLabel('Search tasks').fill('Task 500');
    await page.getByRole('link', { name: 'Task 500', exact: true }).click();
    await page.waitForURL(/\/tasks\/task_/);
    await page.getByLabel('Task name').waitFor();
    assert.equal(await page.getByLabel('Task name').inputValue(), 'Task 500');
  });

  it('logged no page errors', () => {
    assert.deepEqual(session.problems, []);
  });
});
