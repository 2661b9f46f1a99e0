// The one test that waits on the real clock: everything else about timing runs on a mocked clock
// (testing/scheduler.contract.ts). It takes up to ~70 s.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { startSchedulesService, taskBody } from '../providers/scheduler/harness.js';

it('REAL TIME (up to ~70 s): a one-minute schedule fires at its nextRun and records an execution', { timeout: 90_000 }, async () => {
  const svc = await startSchedulesService();
  try {
    const id = (await svc.request('POST', '/api/tasks', { body: taskBody('Every minute') })).body.id;
    const set = await svc.request('POST', `/api/schedules/${id}`, { body: { frequency: 'interval', intervalMinutes: 1 } });
    assert.equal(set.status, 200);
    const { nextRun } = set.body as { nextRun: number };
    assert.ok(nextRun > Date.now() && nextRun - Date.now() <= 60_000);
    const storage = svc.service.services.storage;
    let executions = await storage.executions.list({ taskId: id });
    while (executions.length === 0 && Date.now() < nextRun + 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      executions = await storage.executions.list({ taskId: id });
    }
    assert.equal(executions.length, 1, 'the schedule fired once');
    const [execution] = executions;
    assert.equal(execution!.trigger, 'schedule');
    const startedAt = Date.parse(execution!.startedAt);
    assert.ok(startedAt >= nextRun, 'not before nextRun');
    assert.ok(startedAt - nextRun < 1_000, `started ${startedAt - nextRun} ms after nextRun`);
    const status = await svc.request('GET', `/api/schedules/${id}/status`);
    assert.equal(status.body.schedule.lastRunStatus, 'success');
    const lastRun = Date.parse(status.body.schedule.lastRun);
    assert.ok(lastRun >= nextRun && lastRun <= startedAt, 'lastRun is when the fire started the run');
    assert.equal(status.body.nextRun, nextRun + 60_000, 'the next fire is one minute later');
  } finally {
    await svc.close();
  }
});
