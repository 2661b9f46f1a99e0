// Starting a run is two writes with a shared queue: the `queued` execution, then its job. A process killed between
// them leaves a queued execution without a job; the reconciler of any instance enqueues it (under its deterministic
// job id, so never twice) and it runs once. Simulated by writing the record a run request writes, as an instance
// that died before enqueueing would have left it, on PostgreSQL with pg-boss and with BullMQ on Redis.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Registry } from '../../kernel/registry.js';
import { plugins, providers } from '../../app/built-ins.js';
import { createRunsPlugin } from '../../plugins/runs/index.js';
import { RUN_QUEUE } from '../../plugins/runs/run-worker.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { dropRedisPrefix, queueUnavailable, REDIS_URL, type SharedQueue } from '../e2e/queue-cluster.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const RECONCILE_MS = 500;

function reconcilingOften(): Registry {
  const registry = new Registry();
  registry.addModule({ providers, plugins: plugins?.map((plugin) => (plugin.name === 'runs' ? createRunsPlugin({ reconcileEveryMs: RECONCILE_MS }) : plugin)) });
  return registry;
}

for (const queue of ['pg-boss', 'bullmq'] as SharedQueue[]) {
  const skip = chromium.skip || (await queueUnavailable(queue));
  describe(`a queued execution without a job, QUEUE=${queue}`, { skip, timeout: 120_000 }, () => {
    let db: TestDatabase;
    let svc: TestService;
    let pages: PagesServer;
    let apiKey: string;
    const prefix = `taskloom-reconcile-${randomBytes(4).toString('hex')}`;

    before(async () => {
      pages = await startPagesServer();
      db = await createTestDatabase('taskloom_reconcile');
      svc = await startService({
        STORAGE: 'postgres', DATABASE_URL: db.url(), QUEUE: queue, ALLOW_PRIVATE_NETWORKS: 'true', SECRETS_KEY: randomBytes(32).toString('base64'),
        ...(queue === 'bullmq' ? { REDIS_URL, QUEUE_PREFIX: prefix } : {}),
      }, undefined, { registry: reconcilingOften() });
      ({ apiKey } = await setupAdmin(svc));
    });
    after(async () => {
      await svc?.close();
      await db?.drop();
      await pages?.close();
      if (queue === 'bullmq') await dropRedisPrefix(prefix);
    });

    it('is enqueued by the reconciler and runs exactly once', async (t) => {
      const task = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'orphan', mode: 'agent', url: `${pages.origin}/index.html`, actions: [], extractionScript: 'return document.title' } });
      assert.equal(task.status, 200, task.text);
      const { storage, queue: jobs } = svc.service.services;
      // What `start` writes before it enqueues, from an instance that then died (kill -9 between the two writes).
      const executionId = `exec_orphan${randomBytes(6).toString('hex')}`;
      const now = new Date().toISOString();
      await storage.executions.insert({
        executionId, taskId: task.body.id, taskName: 'orphan', status: 'queued', trigger: 'api', startedAt: now, queuedAt: now,
        mode: 'agent', durationMs: 0, result: {}, logs: [], queueing: { job: { trigger: 'api', variables: { who: 'reconciler' } } },
      });
      const writtenAt = Date.now();
      let record;
      for (const deadline = Date.now() + 60_000; ; await sleep(200)) {
        record = (await svc.request('GET', `/api/executions/${executionId}`, { apiKey })).body;
        if (!['queued', 'running'].includes(record.status)) break;
        if (Date.now() > deadline) throw new Error(`never ran: ${JSON.stringify(record)}`);
      }
      t.diagnostic(`${queue}: ran and ended ${Date.now() - writtenAt} ms after the orphaned record was written`);
      assert.equal(record.status, 'success', JSON.stringify(record));
      assert.equal(record.result.data, 'Fixture home');
      assert.equal(record.logs.filter((line: { message: string }) => line.message === 'started').length, 1);
      // Passes keep coming (every 500 ms): the run's job is known, so nothing is added again.
      await sleep(RECONCILE_MS * 4);
      assert.equal(await jobs.state(RUN_QUEUE, executionId), 'completed');
      assert.equal(await jobs.enqueue(RUN_QUEUE, { executionId }, { id: executionId }), null, 'one job per turn: the same id adds nothing');
      const runs = (await svc.request('GET', `/api/executions?taskId=${task.body.id}`, { apiKey })).body;
      assert.deepEqual(runs.map((r: { status: string }) => r.status), ['success'], 'it ran once');
      assert.ok(!('queueing' in record), 'internal');
    });

    it('leaves a run started normally alone: one job and one run each, while the passes go on', async () => {
      const task = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'normal', mode: 'agent', url: `${pages.origin}/index.html`, actions: [] } });
      const answers = await Promise.all([1, 2, 3, 4].map(() => svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey })));
      for (const answer of answers) assert.equal(answer.body.status, 'success', answer.text);
      await sleep(RECONCILE_MS * 3);
      const runs = (await svc.request('GET', `/api/executions?taskId=${task.body.id}`, { apiKey })).body;
      assert.equal(runs.length, 4);
      for (const run of runs) assert.equal(run.logs.filter((line: { message: string }) => line.message === 'started').length, 1);
    });
  });
}
