// The execution screen shows what run intelligence stored (README "Run intelligence"): the broken expectations
// with their example rows, and the rows added, removed and changed since the previous successful run, in real
// Chromium against the real service with seeded execution records; compared screenshots (previous, this run,
// difference), the Changed column and filter of the executions list, and the New monitor form.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright';
import { PNG } from 'pngjs';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { diffResults } from '../../layers/run-intelligence/result-diff.js';
import { diffScreenshots } from '../../layers/run-intelligence/screenshot-diff.js';
import { CHROMIUM_ARGS, chromiumPath, dashboardSkipReason, watchProblems } from '../support/dashboard.js';
import { ADMIN, setupAdmin, startService, type TestService } from '../support/service.js';

const OLD = [{ sku: 'A', price: 10 }, { sku: 'B', price: 20 }];
const NEW = [{ sku: 'B', price: 25 }, { sku: 'C', price: 5 }];

/** A 40 x 30 PNG, white with a red square at `x`. */
function png(x: number): Buffer {
  const image = new PNG({ width: 40, height: 30 });
  for (let i = 0; i < 40 * 30; i++) {
    const inside = i % 40 >= x && i % 40 < x + 10 && Math.floor(i / 40) >= 10 && Math.floor(i / 40) < 20;
    image.data.set(inside ? [220, 0, 0, 255] : [255, 255, 255, 255], i * 4);
  }
  return PNG.sync.write(image);
}

function record(id: string, n: number, extra: Partial<ExecutionRecord>): ExecutionRecord {
  const startedAt = new Date(Date.UTC(2026, 0, 10, 8, n)).toISOString();
  return {
    executionId: id, taskId: 'task_watch', taskName: 'Price watch', status: 'success', outcome: 'success', trigger: 'api', startedAt,
    finishedAt: startedAt, durationMs: 900, result: { data: NEW, captures: [] }, logs: [{ at: startedAt, level: 'info', message: 'finished' }], ...extra,
  };
}

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard run intelligence: ${skip}`);

describe('dashboard: run intelligence on the execution screen', { skip }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    svc = await startService();
    await setupAdmin(svc);
    const store = svc.service.services.storage.executions;
    await store.insert(record('exec_before', 1, { result: { data: OLD, captures: [] } }));
    await store.insert(record('exec_changed', 2, { changed: true, comparedWith: 'exec_before', diff: diffResults(OLD, NEW, { key: ['sku'] }) }));
    await store.insert(record('exec_invalid', 3, {
      status: 'error', outcome: 'invalid_data', result: { data: [{ sku: 'D', price: null }], captures: [], error: { message: 'The data broke 1 expectation(s)' } },
      violations: [{ rule: 'required', field: 'price', message: 'price is missing or empty in 1 of 1 rows', examples: [{ sku: 'D', price: null }] }],
    }));
    const before = png(5);
    const now = png(25);
    const shot = diffScreenshots(before, now);
    for (const [name, data] of [['exec_changed_1.png', before], ['exec_shots_1.png', now], ['exec_shots_2.png', shot.image]] as const) {
      await svc.service.services.blob.put(name, data, { contentType: 'image/png' });
    }
    await store.insert(record('exec_shots', 4, {
      changed: true, comparedWith: 'exec_changed', diff: diffResults(NEW, NEW, { key: ['sku'] }), result: { data: NEW, captures: ['exec_shots_1.png', 'exec_shots_2.png'] },
      screenshots: [{ actionIndex: 2, capture: 'exec_shots_1.png', baseline: 'exec_changed_1.png', differentPct: shot.differentPct, diff: 'exec_shots_2.png', changed: true }],
    }));
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ baseURL: svc.baseUrl, viewport: { width: 1366, height: 768 } });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    watchProblems(page, problems);
    await page.goto('/executions/exec_changed');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('shows the changes since the previous run as a table, linking that run', async () => {
    await page.getByRole('heading', { name: 'Changes since the previous run' }).waitFor();
    await page.getByText('1 added, 1 removed, 1 changed').waitFor();
    const rows = await page.getByRole('table', { name: 'Changed rows' }).locator('tbody tr').allInnerTexts();
    assert.deepEqual(rows.map((row) => row.split('\t').map((cell) => cell.trim())), [
      ['changed', 'sku=B', 'price', '20', '25'],
      ['added', '{"sku":"C","price":5}'],
      ['removed', '{"sku":"A","price":10}'],
    ]);
    await page.getByRole('link', { name: 'exec_before' }).click();
    await page.waitForURL(/\/executions\/exec_before$/);
    await page.getByRole('heading', { name: 'Result data' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Changes since the previous run' }).count(), 0, 'a run without a diff shows none');
  });

  it('shows the broken expectations with the outcome badge and example rows', async () => {
    await page.goto('/executions/exec_invalid');
    await page.getByRole('heading', { name: 'Data expectations' }).waitFor();
    const list = page.getByRole('list', { name: 'Broken expectations' });
    assert.match(await list.innerText(), /required\s+price is missing or empty in 1 of 1 rows/);
    await list.getByText('1 example row(s)').click();
    assert.match(await list.locator('pre').innerText(), /"sku": "D"/);
    assert.equal(await page.locator('.facts .badge.outcome-invalid_data').innerText(), 'invalid_data');
  });

  it('shows each compared screenshot beside the previous one and the difference', async () => {
    await page.goto('/executions/exec_shots');
    await page.getByRole('heading', { name: 'Screenshots since the previous run' }).waitFor();
    const figure = page.getByRole('figure', { name: 'Screenshot of action 3' });
    assert.match(await figure.locator('figcaption').innerText(), /^Action 3: changed, 16\.667% of pixels differ$/);
    const images = figure.locator('img');
    assert.deepEqual(await images.evaluateAll((list) => list.map((img) => [img.getAttribute('alt'), img.getAttribute('src')])), [
      ['Previous run', '/api/data/captures/exec_changed_1.png'], ['This run', '/api/data/captures/exec_shots_1.png'], ['Difference', '/api/data/captures/exec_shots_2.png'],
    ]);
    await page.waitForFunction(() => [...document.querySelectorAll('figure img')].every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 40));
  });

  it('lists executions with a Changed column, and filters on it', async () => {
    await page.goto('/executions?changed=true');
    await page.getByText('2 executions match').waitFor();
    const rows = page.locator('.executions-table tbody tr');
    assert.deepEqual((await rows.locator('th').allInnerTexts()).length, 2);
    assert.deepEqual(await rows.locator('.badge.changed-yes').allInnerTexts(), ['changed', 'changed']);
    await page.getByLabel('Changed', { exact: true }).selectOption('false');
    await page.waitForURL(/changed=false/);
    await page.getByText('No executions match the filters.').waitFor();
    await page.getByLabel('Changed', { exact: true }).selectOption('');
    await page.getByText('4 executions').waitFor();
    assert.deepEqual(await page.locator('.executions-table tbody tr td:nth-child(6)').allInnerTexts(), ['changed', '—', 'changed', '—'], 'newest first: exec_shots, exec_invalid, exec_changed, exec_before');
  });

  it('makes a monitor from the New monitor form', async () => {
    await page.goto('/tasks');
    await page.getByRole('button', { name: 'New monitor' }).click();
    await page.waitForURL(/\/tasks\/new-monitor$/);
    await page.getByLabel('Page URL').fill('https://shop.example/kettle');
    await page.getByLabel('CSS selector of the value').fill('.price');
    await page.getByLabel('Check every (minutes)').fill('30');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { name: 'Monitor created' }).waitFor();
    const link = page.getByRole('link', { name: 'Monitor shop.example/kettle' });
    const taskId = decodeURIComponent((await link.getAttribute('href'))!.split('/').pop()!);
    const task = await svc.service.services.storage.tasks.get(taskId);
    assert.deepEqual([task?.url, task?.compare, (task?.schedule as { intervalMinutes?: number } | undefined)?.intervalMinutes], ['https://shop.example/kettle', { key: ['selector'] }, 30]);
  });

  it('logged no page errors and no CSP violations', () => {
    assert.deepEqual(problems, []);
  });
});
