// Runs survive a machine: two service processes share one PostgreSQL database and one run queue (pg-boss in that
// database; BullMQ on Redis), each with MAX_CONCURRENT_RUNS=1. With one run running and three queued, the instance
// running the long run is killed -9: the three queued runs complete on the other instance, the running one ends
// `interrupted` (never run twice). Real processes, real Chromium, a fresh database.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { createCluster, queueUnavailable, until, type Cluster, type Member, type SharedQueue } from './queue-cluster.js';

const chromium = chromiumOrSkip();

for (const queue of ['pg-boss', 'bullmq'] as SharedQueue[]) {
  const skip = chromium.skip || (await queueUnavailable(queue));
  describe(`kill -9 of an instance with QUEUE=${queue}`, { skip, timeout: 180_000 }, () => {
    let cluster: Cluster;
    let pages: PagesServer;
    let a: Member, b: Member;

    before(async () => {
      pages = await startPagesServer();
      cluster = await createCluster(queue);
      a = await cluster.spawn('a', { MAX_CONCURRENT_RUNS: '1' });
      b = await cluster.spawn('b', { MAX_CONCURRENT_RUNS: '1' });
    });
    after(async () => {
      await cluster?.close();
      await pages?.close();
    });

    const createTask = async (name: string, waitMs: number) => {
      const res = await a.call('POST', '/api/tasks', { body: { name, url: `${pages.origin}/index.html`, mode: 'agent', actions: [{ type: 'wait', value: String(waitMs) }] } });
      assert.equal(res.status, 200, res.text);
      return res.body.id as string;
    };
    const startAsync = async (on: Member, taskId: string) => {
      const res = await on.call('POST', `/api/tasks/${taskId}/api`, { headers: { prefer: 'respond-async' } });
      assert.equal(res.status, 202, res.text);
      return res.body.executionId as string;
    };
    const statusOf = async (id: string) => (await b.call('GET', `/api/executions/${id}`)).body.status as string;

    it('the queued runs complete on the other instance; the running one ends interrupted', async (t) => {
      const [long, short, quick] = [await createTask('long', 120_000), await createTask('short', 4_000), await createTask('quick', 200)];
      // Both instances busy: the long run on one, the short one on the other.
      const longRun = await startAsync(a, long);
      const shortRun = await startAsync(b, short);
      await until('both runs running', async () => [await statusOf(longRun), await statusOf(shortRun)], (s) => s.every((x) => x === 'running'), 60_000);
      // The holders say so in their logs, which can come a moment after the records say running.
      await until('both holders to log their runs', async () => [a, b].filter((m) => m.ran(longRun) || m.ran(shortRun)).length, (n) => n === 2, 30_000);
      const victim = a.ran(longRun) ? a : b;
      const survivor = victim === a ? b : a;
      assert.ok(survivor.ran(shortRun), 'each instance runs one');
      const queued = [await startAsync(victim, quick), await startAsync(survivor, quick), await startAsync(victim, quick)];
      await sleep(300);
      assert.deepEqual(await Promise.all(queued.map(statusOf)), ['queued', 'queued', 'queued'], '1 running on the victim, 3 queued');

      assert.equal(await victim.proc.stop('SIGKILL'), null);
      const killedAt = Date.now();
      const done = await until('the queued runs finished', async () => Promise.all(queued.map(statusOf)),
        (s) => s.every((x) => x === 'success'), 60_000);
      assert.deepEqual(done, ['success', 'success', 'success']);
      assert.ok(queued.every((id) => survivor.ran(id)), 'all three ran on the survivor');
      t.diagnostic(`${queue}: the 3 queued runs completed ${Date.now() - killedAt} ms after the kill`);

      await until('the killed run is interrupted', () => statusOf(longRun), (s) => s === 'interrupted', 90_000);
      t.diagnostic(`${queue}: the running run ended interrupted ${Date.now() - killedAt} ms after the kill`);
      assert.ok(!survivor.ran(longRun), 'the interrupted run was not run again');
      assert.equal(await statusOf(shortRun), 'success');
      const history = (await survivor.call('GET', `/api/executions?taskId=${quick}`)).body as Array<{ status: string }>;
      assert.equal(history.length, 3, 'each queued run ran once');
    });
  });
}
