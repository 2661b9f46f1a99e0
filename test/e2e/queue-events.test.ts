// Run events and cancel through any instance, with a shared queue (pg-boss on PostgreSQL; BullMQ on Redis): an
// API-only instance B (ROLE=api) and a worker A on one database, so every run runs on A. Through B: the event
// stream gets each log line as it happens (within 1 s of the line's time), with `id:` fields matching the stored
// lines, `Last-Event-ID` resumes after a line, cancel stops a run running on A (409 only once it has ended), and
// (BLOB_STORE=postgres) B serves the captures the run made on A. Real processes, real Chromium, a fresh database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { openSse, type SseEvent } from '../support/sse-reader.js';
import { createCluster, queueUnavailable, until, type Cluster, type Member, type SharedQueue } from './queue-cluster.js';

const chromium = chromiumOrSkip();

for (const queue of ['pg-boss', 'bullmq'] as SharedQueue[]) {
  const skip = chromium.skip || (await queueUnavailable(queue));
  describe(`run events and cancel through any instance, QUEUE=${queue}`, { skip, timeout: 240_000 }, () => {
    let cluster: Cluster;
    let pages: PagesServer;
    let a: Member, b: Member;

    before(async () => {
      pages = await startPagesServer();
      cluster = await createCluster(queue);
      b = await cluster.spawn('b', { ROLE: 'api', BLOB_STORE: 'postgres' });
      a = await cluster.spawn('a', { ROLE: 'worker', MAX_CONCURRENT_RUNS: '2', BLOB_STORE: 'postgres' });
    });
    after(async () => {
      await cluster?.close();
      await pages?.close();
    });

    const createTask = async (name: string, waits: number[]) => {
      const actions = waits.map((ms) => ({ type: 'wait', value: String(ms) }));
      const res = await b.call('POST', '/api/tasks', { body: { name, url: `${pages.origin}/index.html`, mode: 'agent', actions } });
      assert.equal(res.status, 200, res.text);
      return res.body.id as string;
    };
    const startAsync = async (on: Member, taskId: string) => {
      const res = await on.call('POST', `/api/tasks/${taskId}/api`, { headers: { prefer: 'respond-async' } });
      assert.equal(res.status, 202, res.text);
      return res.body.executionId as string;
    };
    const events = (on: Member, id: string, headers?: Record<string, string>) => openSse(`${on.proc.baseUrl}/api/executions/${id}/events`, cluster.apiKey(), headers);
    const record = async (id: string) => (await b.call('GET', `/api/executions/${id}`)).body;
    const logsOf = (seen: SseEvent[]) => seen.filter((e) => e.event === 'log');

    it('streams each line of a run on A through B as it happens, with ids matching the stored lines', async (t) => {
      const taskId = await createTask('steps', [800, 800, 800, 800, 800, 800]);
      const executionId = await startAsync(b, taskId);
      const [viaB, viaA] = [await events(b, executionId), await events(a, executionId)];
      assert.deepEqual([viaB.status, viaA.status], [200, 200]);
      const [seenB, seenA] = [await viaB.ended, await viaA.ended];
      assert.ok(a.ran(executionId) && !b.ran(executionId), 'the run ran on A');
      const stored = await record(executionId);
      assert.equal(stored.status, 'success');
      const lines = logsOf(seenB);
      assert.deepEqual(lines.map((e) => e.data), stored.logs, 'every stored line, in order, once');
      assert.deepEqual(lines.map((e) => e.id), stored.logs.map((_: unknown, i: number) => String(i)), 'each line\'s id is its index');
      assert.deepEqual(logsOf(seenA).map((e) => [e.id, e.data]), lines.map((e) => [e.id, e.data]), 'A streams the same');
      // Lines said while the stream was open (not replayed at its start): each within 1 s of when A said it.
      const openedAt = seenB[0]!.receivedAt;
      const live = lines.filter((e) => Date.parse(e.data.at) > openedAt);
      assert.ok(live.length >= 6, `at least the six wait lines arrived live (${live.length})`);
      const delays = live.map((e) => e.receivedAt - Date.parse(e.data.at));
      t.diagnostic(`${queue}: lines via B arrived ${Math.min(...delays)} to ${Math.max(...delays)} ms after A said them`);
      assert.ok(delays.every((ms) => ms < 1_000), `every line within 1 s: ${delays.join(', ')} ms`);
      const statuses = seenB.filter((e) => e.event === 'status').map((e) => e.data.status);
      assert.deepEqual(statuses.slice(-2), ['running', 'success']);
      assert.deepEqual([seenB.at(-1)!.event, seenB.at(-1)!.data], ['result', {
        executionId, taskId, status: 'success', durationMs: stored.durationMs, result: stored.result,
      }]);
    });

    it('Last-Event-ID resumes after that line, live through B and from the record once ended', async () => {
      const taskId = await createTask('resume', [700, 700, 700, 700, 700]);
      const executionId = await startAsync(b, taskId);
      const first = await events(b, executionId);
      await until('three lines', async () => logsOf(first.seen).length, (n) => n >= 3, 60_000);
      first.close();
      const lastId = logsOf(first.seen)[2]!.id!;
      assert.equal(lastId, '2');
      const resumed = await events(b, executionId, { 'last-event-id': lastId });
      const rest = logsOf(await resumed.ended);
      const stored = await record(executionId);
      assert.equal(stored.status, 'success');
      assert.deepEqual(rest.map((e) => e.id), stored.logs.slice(3).map((_: unknown, i: number) => String(i + 3)), 'from line 3 on');
      assert.deepEqual(rest.map((e) => e.data), stored.logs.slice(3));
      const ended = logsOf(await (await events(b, executionId, { 'last-event-id': String(stored.logs.length - 2) })).ended);
      assert.deepEqual(ended.map((e) => e.data), stored.logs.slice(-1), 'an ended run resumes from its record');
    });

    it('cancels through B a run running on A; it ends cancelled at once, and only then is it 409', async (t) => {
      const taskId = await createTask('long', [60_000]);
      const executionId = await startAsync(b, taskId);
      const stream = await events(b, executionId);
      await until('the run running on A', async () => (await record(executionId)).status, (s) => s === 'running', 60_000);
      const asked = Date.now();
      const cancel = await b.call('POST', `/api/executions/${executionId}/cancel`);
      t.diagnostic(`${queue}: cancel through B answered in ${Date.now() - asked} ms`);
      assert.deepEqual([cancel.status, cancel.body], [200, { success: true, status: 'cancelled' }], cancel.text);
      const stored = await record(executionId);
      assert.equal(stored.status, 'cancelled');
      assert.ok(a.ran(executionId));
      assert.ok(stored.durationMs < 30_000, `stopped early (${stored.durationMs} ms)`);
      const seen = await stream.ended;
      assert.deepEqual([seen.at(-1)!.event, seen.at(-1)!.data.status], ['result', 'cancelled']);
      for (const on of [a, b]) {
        const again = await on.call('POST', `/api/executions/${executionId}/cancel`);
        assert.deepEqual([again.status, again.body.error], [409, 'EXECUTION_FINISHED'], again.text);
        assert.match(again.body.details, /already finished \(cancelled\)/);
      }
    });

    it('cancels through B a run just queued, whether A has taken it yet or not', async () => {
      const taskId = await createTask('taken or not', [20_000]);
      for (let round = 0; round < 5; round++) {
        const executionId = await startAsync(b, taskId);
        const cancel = await b.call('POST', `/api/executions/${executionId}/cancel`);
        assert.deepEqual([cancel.status, cancel.body], [200, { success: true, status: 'cancelled' }], `round ${round}: ${cancel.text}`);
        assert.equal((await record(executionId)).status, 'cancelled');
      }
    });

    it('serves through B the captures a run made on A', async () => {
      const res = await b.call('POST', '/api/tasks', { body: { name: 'shot', url: `${pages.origin}/index.html`, mode: 'agent', actions: [{ type: 'screenshot' }] } });
      assert.equal(res.status, 200, res.text);
      const run = await b.call('POST', `/api/tasks/${res.body.id}/api`);
      assert.equal(run.body.status, 'success', run.text);
      assert.ok(a.ran(run.body.executionId));
      const [name] = run.body.result.captures as string[];
      assert.equal(name, `${run.body.executionId}_1.png`);
      const listed = await b.call('GET', `/api/data/captures?runId=${run.body.executionId}`);
      assert.deepEqual(listed.body.map((c: { name: string }) => c.name), [name]);
      const file = await fetch(`${b.proc.baseUrl}/api/data/captures/${name}`, { headers: { 'x-api-key': cluster.apiKey() } });
      assert.equal(file.status, 200);
      assert.deepEqual([...new Uint8Array(await file.arrayBuffer()).slice(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG');
    });
  });
}
