// A person in the loop with several instances: two service processes on one PostgreSQL database and one shared
// queue (pg-boss; BullMQ on Redis) run a task with a `pause_for_human` action. The instance that does not hold the paused run streams its
// `awaiting_human` event (without the handoff link, which stays with the holder: the holder serves the live page)
// and refuses a new link naming the holder; `POST /api/executions/{id}/resume` sent to it is forwarded over the run
// channel to the holder, which resumes the run: the caller gets `{ success: true, status: "running" }` and the run
// ends success. A second resume (the run no longer waits) answers 409 EXECUTION_NOT_PAUSED. Real processes, real
// Chromium, a fresh database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { openSse, type SseStream } from '../support/sse-reader.js';
import { createCluster, queueUnavailable, until, type Cluster, type Member, type SharedQueue } from './queue-cluster.js';

const chromium = chromiumOrSkip();

for (const queue of ['pg-boss', 'bullmq'] as SharedQueue[]) {
  const skip = chromium.skip || (await queueUnavailable(queue));
  describe(`resume a paused run through the instance that does not hold it, QUEUE=${queue}`, { skip, timeout: 240_000 }, () => {
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

    it('the holder resumes it, and the run ends success', async (t) => {
      const task = await a.call('POST', '/api/tasks', {
        body: { name: 'paused', url: `${pages.origin}/index.html`, mode: 'agent', timeoutMs: 180_000,
          actions: [{ type: 'wait', value: '1500' }, { type: 'pause_for_human', value: 'Look at it', timeoutMs: 150_000 }] },
      });
      assert.equal(task.status, 200, task.text);
      const started = await a.call('POST', `/api/tasks/${task.body.id}/api`, { headers: { prefer: 'respond-async' } });
      assert.equal(started.status, 202, started.text);
      const id = started.body.executionId as string;
      const streams: Record<string, SseStream> = {};
      for (const member of [a, b]) streams[member.name] = await openSse(`${member.proc.baseUrl}/api/executions/${id}/events`, cluster.apiKey());
      t.after(() => Object.values(streams).forEach((stream) => stream.close()));
      // Not paused yet when the streams opened: the other instance's stream can only hear of it live, over the channel.
      const live = (await (await a.call('GET', `/api/executions/${id}`)).body).outcome !== 'awaiting_human';

      const recordOn = async (member: Member) => (await member.call('GET', `/api/executions/${id}`)).body;
      const paused = await until('the run waiting for a person', () => recordOn(a), (r) => r.outcome === 'awaiting_human' || !['queued', 'running'].includes(r.status), 120_000);
      assert.equal(paused.outcome, 'awaiting_human', JSON.stringify(paused));
      const holder = (await until('an instance to log that it runs it', async () => (a.ran(id) ? a : b.ran(id) ? b : undefined),
        (member) => member !== undefined, 30_000))!;
      const other = holder === a ? b : a;
      t.diagnostic(`held by ${holder.name}; resuming through ${other.name}`);

      // The other instance's stream hears of the pause, without the link.
      const heard = await until(`${other.name}'s stream to get awaiting_human`, async () => streams[other.name]!.seen.find((e) => e.event === 'awaiting_human'),
        (event) => event !== undefined, 30_000);
      t.diagnostic(`${other.name}'s stream heard awaiting_human ${live ? 'live, over the run channel' : 'from the record (paused before it opened)'}`);
      assert.deepEqual([heard!.data.executionId, heard!.data.message, heard!.data.reason, heard!.data.handoffPath], [id, 'Look at it', 'action', undefined]);

      // A new handoff link comes only from the holder (it serves the live page).
      const elsewhereLink = await other.call('POST', `/api/executions/${id}/handoff`);
      assert.equal(elsewhereLink.status, 409, elsewhereLink.text);
      assert.equal(elsewhereLink.body.error, 'EXECUTION_NOT_PAUSED');
      assert.match(JSON.stringify(elsewhereLink.body), new RegExp(`instance-${holder.name}`));
      const link = await holder.call('POST', `/api/executions/${id}/handoff`);
      assert.equal(link.status, 200, link.text);

      const askedAt = Date.now();
      const resumed = await other.call('POST', `/api/executions/${id}/resume`);
      t.diagnostic(`resume through ${other.name} answered ${resumed.status} in ${Date.now() - askedAt} ms`);
      assert.equal(resumed.status, 200, resumed.text);
      assert.deepEqual(resumed.body, { success: true, status: 'running' });

      const end = await until('the run ended', () => recordOn(other), (r) => !['queued', 'running'].includes(r.status), 60_000);
      assert.deepEqual([end.status, end.outcome], ['success', 'success'], JSON.stringify(end.logs));
      assert.ok(end.logs.some((line: { message: string }) => line.message === 'resumed by a person'), JSON.stringify(end.logs));
      assert.ok(!other.ran(id), 'the run stayed on its holder');

      const again = await other.call('POST', `/api/executions/${id}/resume`);
      assert.deepEqual([again.status, again.body.error], [409, 'EXECUTION_NOT_PAUSED']);
      const ended = await Promise.all(Object.values(streams).map((stream) => stream.ended));
      for (const seen of ended) assert.equal(seen.at(-1)?.data.status, 'success', 'each stream ends with the result');
    });
  });
}
