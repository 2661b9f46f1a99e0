// The dashboard's execution view of a result stored apart (README "Large results"), in real Chromium against the
// real service: "Large result, N MB", a download link serving the whole result, and the data shown once asked for.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { storeResultApart } from '../../layers/stored-results/store-apart.js';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const ROWS = 20_000;
const skip = dashboardSkipReason();
if (skip) console.log(`# skipped the dashboard's large result: ${skip}`);

describe('dashboard: a large result stored apart', { skip }, () => {
  let svc: TestService;
  let session: DashboardSession;
  let bytes: number;

  before(async () => {
    svc = await startService();
    await setupAdmin(svc);
    const { blob, storage } = svc.service.services;
    const data = Array.from({ length: ROWS }, (_, i) => ({ sku: `SKU-${i}`, name: `Product number ${i}`, price: i / 4 }));
    const at = new Date(Date.UTC(2026, 0, 10, 8)).toISOString();
    const recorded = await storeResultApart(blob, 'exec_big', { data, finalUrl: 'https://shop.example/', title: 'Shop', captures: [] }, 256 * 1024);
    assert.ok(recorded.resultStoredApart);
    bytes = recorded.resultStoredApart.bytes;
    const record: ExecutionRecord = {
      executionId: 'exec_big', taskId: 'task_big', taskName: 'Big catalogue', status: 'success', trigger: 'api', startedAt: at, finishedAt: at,
      durationMs: 900, ...recorded, logs: [{ at, level: 'info', message: 'finished: success' }],
    };
    await storage.executions.insert(record);
    session = await openDashboard(svc.baseUrl, '/executions/exec_big', 'Big catalogue');
  });
  after(async () => {
    await session?.browser.close();
    await svc?.close();
  });

  it('shows the size, links the whole result, and shows the data once asked', async () => {
    const { page, problems } = session;
    const mb = (bytes / 1024 / 1024).toFixed(1);
    await page.getByText(`Large result, ${mb} MB`).waitFor();
    assert.equal(await page.getByText('The run returned no data.').count(), 0, 'the null data of the record is not shown as none');
    const link = page.getByRole('link', { name: 'Download result (JSON)' });
    assert.equal(await link.getAttribute('href'), '/api/executions/exec_big/result');
    const served = await page.request.get('/api/executions/exec_big/result');
    assert.equal(served.status(), 200);
    assert.equal((await served.body()).length, bytes);
    assert.equal((await served.json()).data.length, ROWS);

    await page.getByRole('button', { name: 'View result' }).click();
    await page.getByRole('tab', { name: `Table (${ROWS} rows)` }).waitFor();
    await page.getByRole('cell', { name: 'SKU-0', exact: true }).waitFor();
    assert.deepEqual(problems, []);
  });
});
