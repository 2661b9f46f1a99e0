// The filters the dashboard links to: trigger and a startedAt range on the list, the same filters counted by
// GET /api/executions/count, and trigger on the export.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const T0 = Date.UTC(2025, 0, 1);
const TRIGGERS = ['api', 'schedule', 'dashboard'] as const;

/** Execution `i` starts `i` minutes after T0; its trigger cycles api, schedule, dashboard; every fourth failed. */
function record(i: number): ExecutionRecord {
  const startedAt = new Date(T0 + i * 60_000).toISOString();
  return {
    executionId: `exec_${i}`, taskId: i % 2 === 0 ? 'task_even' : 'task_odd', taskName: `Task ${i % 2}`,
    status: i % 4 === 0 ? 'error' : 'success', trigger: TRIGGERS[i % 3]!, startedAt, finishedAt: startedAt, durationMs: 10,
    result: { data: null, finalUrl: 'https://example.com/', title: 'Example', captures: [] }, logs: [],
  };
}
const at = (minute: number) => new Date(T0 + minute * 60_000).toISOString();
const ids = (body: Array<{ executionId: string }>) => body.map((e) => e.executionId);
const expect = (keep: (i: number) => boolean) => Array.from({ length: 12 }, (_, k) => 12 - k).filter(keep).map((i) => `exec_${i}`);

describe('executions: trigger, date range and count', () => {
  let svc: TestService;
  let apiKey: string;
  const api = (url: string) => svc.request('GET', url, { apiKey });

  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
    for (let i = 1; i <= 12; i++) await svc.service.services.storage.executions.insert(record(i));
  });
  after(() => svc?.close());

  it('the list filters by trigger and by an inclusive from/to range, with the other filters', async () => {
    assert.deepEqual(ids((await api('/api/executions?trigger=schedule')).body), expect((i) => i % 3 === 1));
    assert.deepEqual(ids((await api(`/api/executions?from=${at(3)}&to=${at(6)}`)).body), expect((i) => i >= 3 && i <= 6));
    const all = await api(`/api/executions?trigger=api&taskId=task_even&status=error&from=${at(1)}`);
    assert.deepEqual(ids(all.body), expect((i) => i % 3 === 0 && i % 2 === 0 && i % 4 === 0));
    assert.deepEqual(ids((await api('/api/executions/list?trigger=dashboard&limit=2')).body.executions), expect((i) => i % 3 === 2).slice(0, 2));
  });

  it('count answers { total } for the same filters, ignoring paging', async () => {
    assert.deepEqual((await api('/api/executions/count')).body, { total: 12 });
    assert.deepEqual((await api('/api/executions/count?status=error')).body, { total: 3 });
    assert.deepEqual((await api(`/api/executions/count?trigger=api&to=${at(6)}`)).body, { total: 2 });
    assert.deepEqual((await api('/api/executions/count?taskId=task_none')).body, { total: 0 });
  });

  it('filters list, summaries and count by outcome; older records answer the outcome of their status', async () => {
    const store = svc.service.services.storage.executions;
    await store.insert({ ...record(13), executionId: 'walled', status: 'error', outcome: 'anti_bot' });
    await store.insert({ ...record(14), executionId: 'stopped', status: 'success', outcome: 'stopped' });
    try {
      assert.deepEqual(ids((await api('/api/executions?outcome=anti_bot')).body), ['walled']);
      assert.deepEqual(ids((await api('/api/executions/list?outcome=stopped')).body.executions), ['stopped']);
      assert.deepEqual((await api('/api/executions/count?outcome=error')).body, { total: 3 });
      assert.deepEqual((await api('/api/executions/count?status=error')).body, { total: 4 });
      const old = await api('/api/executions/exec_4');
      assert.deepEqual([old.body.status, old.body.outcome], ['error', 'error']);
      const walled = await api('/api/executions/walled');
      assert.deepEqual([walled.body.status, walled.body.outcome], ['error', 'anti_bot']);
      const listed = (await api('/api/executions/list?limit=3')).body.executions;
      assert.deepEqual(listed.map((e: { outcome: string }) => e.outcome), ['stopped', 'anti_bot', 'error']);
      const bad = await api('/api/executions?outcome=blocked');
      assert.deepEqual([bad.status, bad.body.error], [400, 'VALIDATION_ERROR']);
    } finally {
      await store.delete('walled');
      await store.delete('stopped');
    }
  });

  it('refuses an unknown trigger or a malformed timestamp with 400 VALIDATION_ERROR naming the field', async () => {
    for (const [url, field] of [
      ['/api/executions?trigger=cron', 'trigger'], ['/api/executions/count?from=yesterday', 'from'],
      ['/api/executions/count?to=2025-13-01', 'to'],
    ]) {
      const res = await api(url!);
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], url);
      assert.match(res.body.details, new RegExp(`querystring\\.?${field}|${field}`), url);
    }
  });

  it('the export takes the trigger filter too', async () => {
    const res = await api('/api/executions/export?trigger=dashboard');
    assert.equal(res.status, 200);
    const lines = String(res.body).trim().split('\n').map((line) => JSON.parse(line) as ExecutionRecord);
    assert.deepEqual(ids(lines), expect((i) => i % 3 === 2));
  });

  it('overview counts the last 24 hours and 7 days by status and lists the newest failures', async () => {
    const store = svc.service.services.storage.executions;
    const ago = (hours: number, i: number, status: ExecutionRecord['status']) =>
      store.insert({ ...record(100 + i), executionId: `recent_${i}`, status, startedAt: new Date(Date.now() - hours * 3_600_000).toISOString() });
    await ago(1, 1, 'success');
    await ago(2, 2, 'error');
    await ago(3, 3, 'running');
    await ago(72, 4, 'timeout');
    await ago(240, 5, 'success');
    const { status, body } = await api('/api/executions/overview');
    assert.equal(status, 200);
    const [day, week] = body.windows;
    assert.deepEqual([day.hours, day.total, day.byStatus.success, day.byStatus.error, day.byStatus.running], [24, 3, 1, 1, 1]);
    assert.deepEqual([week.hours, week.total, week.byStatus.timeout, week.byStatus.cancelled], [168, 4, 1, 0]);
    // Newest first across error, timeout and interrupted; then the seeded 2025 errors (minutes 12 and 8).
    assert.deepEqual(ids(body.recentFailures), ['recent_2', 'recent_4', 'exec_12', 'exec_8', 'exec_4']);
    assert.deepEqual(Object.keys(body.recentFailures[0]).sort(), ['durationMs', 'executionId', 'outcome', 'startedAt', 'status', 'taskId', 'taskName', 'trigger']);
    assert.equal((await svc.request('GET', '/api/executions/overview')).status, 401);
  });
});
