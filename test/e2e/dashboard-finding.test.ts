// Finding runs in the dashboard, in real Chromium against the real service: the executions list filtered by task,
// status, trigger and dates (kept in the address), its total and export; a task's own run history in the editor.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

// A 2x1 PNG: a screenshot capture on disk.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAADklEQVR4nGP4z8AAQv8BD/kD/YURmXYAAAAASUVORK5CYII=', 'base64');
const TRIGGERS = ['api', 'schedule', 'dashboard'] as const;
/** Run `i` of task `taskId`, started `i` days before now (noon local time), so the date filters have whole days. */
function run(i: number, taskId: string, taskName: string): ExecutionRecord {
  const started = new Date();
  started.setHours(12, 0, 0, 0);
  started.setDate(started.getDate() - i);
  const startedAt = started.toISOString();
  return {
    executionId: `exec_${taskId}_${i}`, taskId, taskName, status: i % 3 === 0 ? 'error' : 'success', trigger: TRIGGERS[i % 3]!,
    startedAt, finishedAt: startedAt, durationMs: 500 + i, result: { data: null, finalUrl: 'https://example.com/', title: 'Example', captures: [] }, logs: [],
  };
}
/** `YYYY-MM-DD` of the local day `i` days ago. */
function dayAgo(i: number): string {
  const d = new Date();
  d.setDate(d.getDate() - i);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard finding and comparing: ${skip}`);

describe('dashboard: finding and comparing runs', { skip }, () => {
  let svc: TestService;
  let session: DashboardSession;
  let page: Page;
  let apiKey: string;
  let alpha: string;
  let beta: string;

  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
    const task = async (name: string) => (await svc.request('POST', '/api/tasks', { apiKey, body: { name, url: 'https://example.com/', mode: 'agent', actions: [{ type: 'wait', value: '10' }] } })).body.id as string;
    alpha = await task('Alpha prices');
    beta = await task('Beta stock');
    const store = svc.service.services.storage.executions;
    for (let i = 0; i < 30; i++) await store.insert(run(i, alpha, 'Alpha prices'));
    for (let i = 0; i < 4; i++) await store.insert(run(i, beta, 'Beta stock'));
    await mkdir(path.join(svc.dataDir, 'captures'), { recursive: true });
    for (const name of [`exec_${alpha}_0_1.png`, `exec_${alpha}_0_2.png`, `exec_${beta}_1_1.png`]) await writeFile(path.join(svc.dataDir, 'captures', name), PNG);
    session = await openDashboard(svc.baseUrl, '/executions', 'Executions');
    page = session.page;
  });
  after(async () => {
    await session?.browser.close();
    await svc?.close();
  });

  const rows = () => page.locator('.executions-table tbody tr');
  const status = () => page.locator('section > p[role="status"]');

  it('shows the total and filters by task, status, trigger and dates, each kept in the address', async () => {
    await status().getByText('34 executions').waitFor();
    assert.equal(await rows().count(), 25);
    await page.getByLabel('Task', { exact: true }).selectOption({ label: 'Alpha prices' });
    await status().getByText('30 executions match').waitFor();
    await page.getByLabel('Trigger').selectOption('schedule');
    await status().getByText('10 executions match').waitFor();
    await page.getByLabel('Status').selectOption('success');
    await status().getByText('10 executions match').waitFor();
    await page.getByLabel('From', { exact: true }).fill(dayAgo(9));
    await page.getByLabel('To', { exact: true }).fill(dayAgo(4));
    // Days 4 to 9 ago whose i % 3 === 1: 4 and 7.
    await status().getByText('2 executions match').waitFor();
    assert.deepEqual(await rows().locator('th a').allTextContents(), ['Alpha prices', 'Alpha prices']);
    const url = new URL(page.url());
    assert.deepEqual(Object.fromEntries(url.searchParams), { taskId: alpha, status: 'success', trigger: 'schedule', from: dayAgo(9), to: dayAgo(4) });
  });

  it('a linked filtered view opens filtered, pages through the total, and Clear filters shows everything', async () => {
    await page.goto(`/executions?taskId=${alpha}`);
    await status().getByText('30 executions match').waitFor();
    assert.equal(await page.getByLabel('Task', { exact: true }).inputValue(), alpha);
    await page.getByText('Page 1 of 2').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.executions-table tbody tr').length === 5);
    await page.getByLabel('Status').selectOption('error');
    await page.getByText('Page 1 of 1').waitFor();
    await status().getByText('10 executions match').waitFor();
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await status().getByText('34 executions').waitFor();
    assert.equal(new URL(page.url()).search, '');
  });

  it('exports exactly the filtered executions', async () => {
    await page.goto(`/executions?taskId=${beta}&trigger=api`);
    await status().getByText('2 executions match').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const lines = (await readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/);
    assert.equal(lines.length, 3, 'a header row and two runs');
    assert.match(lines[0]!, /^executionId,taskId,taskName,status,trigger/);
    for (const line of lines.slice(1)) assert.match(line, new RegExp(`^exec_${beta}_(0|3),${beta},Beta stock,\\w+,api,`));
  });

  it("the editor's Runs tab shows the task's own runs, the total, and links to them in Executions", async () => {
    await page.goto(`/tasks/${alpha}`);
    await page.getByRole('heading', { name: 'Alpha prices', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Runs' }).click();
    await page.getByText('The latest 20 of 30 runs').waitFor();
    assert.equal(await rows().count(), 20);
    assert.deepEqual([...new Set(await rows().locator('th a').allTextContents())], ['Alpha prices']);
    await page.goto(`/tasks/${beta}`);
    await page.getByRole('tab', { name: 'Runs' }).click();
    await page.getByText('4 runs').waitFor();
    await page.getByRole('link', { name: 'All runs of this task in Executions' }).click();
    await status().getByText('4 executions match').waitFor();
    assert.equal(new URL(page.url()).searchParams.get('taskId'), beta);
  });

  it('the capture gallery names tasks and opens a full-size viewer: Next/Previous, arrow keys, Escape', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Captures' }).click();
    const cards = page.locator('.capture-grid .capture');
    await cards.nth(2).waitFor();
    assert.deepEqual((await page.locator('.capture-task').allTextContents()).sort(), ['Alpha prices', 'Alpha prices', 'Beta stock']);
    const names = await page.locator('.capture-name').allTextContents();
    await page.getByRole('button', { name: `View ${names[0]} full size` }).click();
    const viewer = page.getByRole('dialog');
    const shows = async (n: number) => {
      await viewer.getByRole('heading', { name: `Screenshot ${n} of 3` }).waitFor();
      const image = viewer.getByRole('img', { name: `Full size ${names[n - 1]}` });
      await image.waitFor();
      await page.waitForFunction((img) => (img as HTMLImageElement).naturalWidth === 2, await image.elementHandle());
      const task = names[n - 1]!.includes(beta) ? 'Beta stock' : 'Alpha prices';
      assert.match(await viewer.textContent() ?? '', new RegExp(task));
    };
    await shows(1);
    assert.equal(await viewer.getByRole('button', { name: 'Previous' }).isDisabled(), true);
    await page.keyboard.press('ArrowRight');
    await shows(2);
    await viewer.getByRole('button', { name: 'Next' }).click();
    await shows(3);
    assert.equal(await viewer.getByRole('button', { name: 'Next' }).isDisabled(), true);
    await page.keyboard.press('ArrowLeft');
    await shows(2);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
    await page.getByLabel('Task', { exact: true }).selectOption({ label: 'Beta stock' });
    await page.waitForFunction(() => document.querySelectorAll('.capture-grid .capture').length === 1);
    await page.getByRole('button', { name: `View exec_${beta}_1_1.png full size` }).click();
    await viewer.getByRole('heading', { name: 'Screenshot 1 of 1' }).waitFor();
    await viewer.getByRole('link', { name: 'Open the run' }).click();
    await page.getByRole('heading', { name: 'Beta stock', level: 1 }).waitFor();
  });

  it('compares two versions of a task side by side: fields and aligned actions', async () => {
    const edit = (body: object) => svc.request('PATCH', `/api/tasks/${alpha}`, { apiKey, body });
    await edit({ actions: [{ type: 'wait', value: '10' }, { type: 'click', selector: '#buy' }] });
    await edit({ name: 'Alpha prices v2', actions: [{ type: 'wait', value: '20' }, { type: 'click', selector: '#buy' }, { type: 'screenshot' }] });
    await page.goto(`/tasks/${alpha}`);
    await page.getByRole('heading', { name: 'Alpha prices v2', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Versions' }).click();
    const compare = page.getByRole('button', { name: /^Compare the version saved/ });
    await compare.nth(1).waitFor();
    await compare.last().click(); // the oldest version against the current task
    const view = page.getByRole('region', { name: 'Compare versions' });
    await view.getByText('1 field differs, 3 of 3 action lines changed.').waitFor();
    assert.deepEqual(await view.locator('.compare-fields tbody tr').first().locator('th, td').allTextContents(), ['name', 'Alpha prices', 'Alpha prices v2']);
    const lines = view.locator('.compare-actions tbody tr');
    const kinds = () => lines.evaluateAll((trs) => trs.map((tr) => tr.className));
    assert.deepEqual(await kinds(), ['diff-changed', 'diff-added', 'diff-added']);
    assert.deepEqual(await lines.nth(0).locator('td').allTextContents(), ['wait · 10', 'wait · 20']);
    assert.deepEqual(await lines.nth(2).locator('td').allTextContents(), ['', 'screenshot']);
    // The newer version (two actions) against the current task: the shared click lines up.
    const newer = await view.getByLabel('Left', { exact: true }).locator('option').nth(1).getAttribute('value');
    await view.getByLabel('Left', { exact: true }).selectOption(newer!);
    await view.getByText('1 field differs, 2 of 3 action lines changed.').waitFor();
    assert.deepEqual(await kinds(), ['diff-changed', 'diff-same', 'diff-added']);
    await view.getByLabel('Right', { exact: true }).selectOption(newer!);
    await view.getByText('The two versions are the same.').waitFor();
    await view.getByRole('button', { name: 'Close comparison' }).click();
    await view.waitFor({ state: 'detached' });
  });

  it('the overview shows the runs of the last day and week, the success rate, recent failures and next schedules', async () => {
    const scheduled = await svc.request('POST', `/api/schedules/${beta}`, { apiKey, body: { enabled: true, frequency: 'daily', hour: 9, minute: 0 } });
    assert.equal(scheduled.status, 200, JSON.stringify(scheduled.body));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const expected = (await svc.request('GET', '/api/executions/overview', { apiKey })).body;
    for (const [title, window] of [['Last 24 hours', expected.windows[0]], ['Last 7 days', expected.windows[1]]]) {
      const card = page.getByRole('region', { name: title });
      const { total, byStatus } = window;
      const rate = `${Math.round((byStatus.success / (total - byStatus.queued - byStatus.running)) * 100)} %`;
      await card.locator('dd').first().getByText(String(total), { exact: true }).waitFor();
      assert.deepEqual(await card.locator('dd').allTextContents(), [String(total), rate, String(byStatus.error + byStatus.timeout + byStatus.interrupted)]);
    }
    assert.ok(expected.windows[1].total >= 9, 'a week holds at least the runs of days 1 to 6 of Alpha and 1 to 3 of Beta');
    const failures = page.getByRole('region', { name: 'Recent failures' }).locator('tbody tr');
    assert.equal(await failures.count(), 5);
    assert.deepEqual(await failures.locator('td:nth-child(2)').allTextContents(), ['error', 'error', 'error', 'error', 'error']);
    const next = page.getByRole('region', { name: 'Next schedules' });
    await next.getByRole('link', { name: 'Beta stock' }).waitFor();
    assert.match(await next.textContent() ?? '', /Daily at 09:00/);
    await page.getByRole('region', { name: 'Last 7 days' }).getByRole('link', { name: 'See these runs' }).click();
    await page.getByRole('heading', { name: 'Executions', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('from'), dayAgo(7));
  });

  it('logged no page errors and no failed requests', () => {
    assert.deepEqual(session.problems, []);
  });
});
