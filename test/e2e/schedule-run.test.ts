// End to end on the real clock: a one-minute schedule fires through the real runs plugin and Chromium.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { detectChromium } from '../../layers/browser-pool/index.js';
import { startPagesServer } from '../support/pages-server.js';
import { startService } from '../support/service.js';

let chromiumMissing: string | false = false;
try {
  detectChromium({});
} catch (error) {
  chromiumMissing = `Chromium not found (${(error as Error).message}): the scheduled run cannot start`;
}

it('REAL TIME (up to ~75 s): a schedule fires the task through the runs plugin as trigger "schedule"',
  { timeout: 100_000, skip: chromiumMissing }, async () => {
    const pages = await startPagesServer();
    const svc = await startService({ AUTH_DISABLED: 'true', ALLOW_PRIVATE_NETWORKS: 'true' });
    try {
      const task = await svc.request('POST', '/api/tasks', { body: {
        name: 'Scheduled title', url: `${pages.origin}/index.html`, mode: 'agent', actions: [],
        extractionScript: 'return document.title',
      } });
      assert.equal(task.status, 200, task.text);
      const set = await svc.request('POST', `/api/schedules/${task.body.id}`, { body: { frequency: 'interval', intervalMinutes: 1 } });
      assert.equal(set.status, 200, set.text);
      const nextRun = set.body.nextRun as number;
      const storage = svc.service.services.storage;
      let done = (await storage.executions.list({ taskId: task.body.id })).filter((e) => e.status !== 'queued' && e.status !== 'running');
      while (done.length === 0 && Date.now() < nextRun + 30_000) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        done = (await storage.executions.list({ taskId: task.body.id })).filter((e) => e.status !== 'queued' && e.status !== 'running');
      }
      assert.equal(done.length, 1, 'the schedule fired once');
      const [execution] = done;
      assert.deepEqual([execution!.trigger, execution!.status], ['schedule', 'success']);
      assert.equal(typeof execution!.result.data, 'string');
      assert.ok(Date.parse(execution!.startedAt) >= nextRun - 5, 'not before nextRun');
      const status = await svc.request('GET', `/api/schedules/${task.body.id}/status`);
      assert.equal(status.body.schedule.lastRunStatus, 'success');
    } finally {
      await svc.close();
      await pages.close();
    }
  });
