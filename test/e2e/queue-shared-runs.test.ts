// A shared run queue (QUEUE=pg-boss) across three processes on one PostgreSQL database: an API-only instance
// (ROLE=api, starts no browser), a worker (ROLE=worker) and a full instance (ROLE=all), each worker with
// MAX_CONCURRENT_RUNS=1. A run goes to whichever worker is free, a queued run is cancelled through any instance,
// and SIGTERM leaves queued runs queued for the others. Real processes, real Chromium, a fresh database.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { createCluster, queueUnavailable, until, type Cluster, type Member } from './queue-cluster.js';

const skip = chromiumOrSkip().skip || (await queueUnavailable('pg-boss'));

/** Process ids of the descendants of `pid` whose command names Chromium (Linux /proc). */
function chromiumUnder(pid: number): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch { /* gone meanwhile */ }
  }
  const under = (child: number): boolean => {
    for (let p = parents.get(child); p !== undefined && p > 1; p = parents.get(p)) if (p === pid) return true;
    return false;
  };
  return [...names].filter(([child, name]) => /chrom/i.test(name) && under(child)).map(([child]) => child);
}

describe('a shared run queue across an API-only instance and two workers', { skip, timeout: 240_000 }, () => {
  let cluster: Cluster;
  let pages: PagesServer;
  let api: Member, worker: Member, full: Member;

  before(async () => {
    pages = await startPagesServer();
    cluster = await createCluster('pg-boss');
    api = await cluster.spawn('api', { ROLE: 'api' });
    [worker, full] = await Promise.all([
      cluster.spawn('worker', { ROLE: 'worker', MAX_CONCURRENT_RUNS: '1' }),
      cluster.spawn('full', { ROLE: 'all', MAX_CONCURRENT_RUNS: '1' }),
    ]);
  });
  after(async () => {
    await cluster?.close();
    await pages?.close();
  });

  const createTask = async (name: string, waitMs: number) => {
    const res = await api.call('POST', '/api/tasks', { body: { name, url: `${pages.origin}/index.html`, mode: 'agent', actions: [{ type: 'wait', value: String(waitMs) }] } });
    assert.equal(res.status, 200, res.text);
    return res.body.id as string;
  };
  const startAsync = async (on: Member, taskId: string) => {
    const res = await on.call('POST', `/api/tasks/${taskId}/api`, { headers: { prefer: 'respond-async' } });
    assert.equal(res.status, 202, res.text);
    return res.body.executionId as string;
  };
  const statusOf = async (id: string) => (await api.call('GET', `/api/executions/${id}`)).body.status as string;
  const bothRunning = (ids: string[]) => until('both workers busy', async () => Promise.all(ids.map(statusOf)), (s) => s.every((x) => x === 'running'), 60_000);

  it('a run asked of the API-only instance runs on a worker, answered as before; the API instance starts no browser', async () => {
    const quick = await createTask('quick', 100);
    const res = await api.call('POST', `/api/tasks/${quick}/api`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['durationMs', 'executionId', 'result', 'status', 'taskId']);
    assert.equal(res.body.status, 'success');
    assert.ok(worker.ran(res.body.executionId) || full.ran(res.body.executionId), 'a worker ran it');
    assert.ok(!api.ran(res.body.executionId));
    assert.deepEqual(chromiumUnder(api.proc.child.pid!), [], 'no Chromium under the API instance');
    assert.ok(chromiumUnder(worker.proc.child.pid!).length + chromiumUnder(full.proc.child.pid!).length > 0, 'Chromium under a worker');
  });

  it('a run waits for no busy instance while another is free', async (t) => {
    const [long, quick] = [await createTask('long', 10_000), await createTask('quick', 100)];
    // Both workers' browsers warm first, so the figure is the queue's, not a cold Chromium's.
    const warm = await Promise.all([startAsync(api, quick), startAsync(api, quick)]);
    await until('the warm-up runs', async () => Promise.all(warm.map(statusOf)), (s) => s.every((x) => x === 'success'), 60_000);
    const longRun = await startAsync(full, long);
    await until('the long run running', () => statusOf(longRun), (s) => s === 'running', 60_000);
    const started = Date.now();
    const res = await full.call('POST', `/api/tasks/${quick}/api`); // asked of the busy instance
    assert.equal(res.body.status, 'success', res.text);
    t.diagnostic(`answered in ${Date.now() - started} ms beside the 10 s run`);
    assert.equal(await statusOf(longRun), 'running', 'answered while the long run still runs, not behind it');
    assert.ok(worker.ran(res.body.executionId) !== full.ran(res.body.executionId), 'the free one ran it');
    await until('the long run ended', () => statusOf(longRun), (s) => s === 'success', 30_000);
  });

  it('cancels a queued run through another instance; it never runs', async () => {
    const long = await createTask('long', 3_000);
    const quick = await createTask('quick', 100);
    const busy = [await startAsync(api, long), await startAsync(api, long)];
    await bothRunning(busy);
    const queued = await startAsync(full, quick);
    assert.equal(await statusOf(queued), 'queued');
    const cancel = await api.call('POST', `/api/executions/${queued}/cancel`);
    assert.deepEqual([cancel.status, cancel.body], [200, { success: true, status: 'cancelled' }], cancel.text);
    const record = (await worker.call('GET', `/api/executions/${queued}`)).body;
    assert.deepEqual([record.status, record.durationMs, record.result.error.message], ['cancelled', 0, 'Cancelled on request']);
    await until('the busy runs ended', async () => Promise.all(busy.map(statusOf)), (s) => s.every((x) => x === 'success'), 30_000);
    await sleep(500);
    assert.equal(await statusOf(queued), 'cancelled');
    assert.ok(![api, worker, full].some((m) => m.ran(queued)), 'it never ran');
    const again = await full.call('POST', `/api/executions/${queued}/cancel`);
    assert.equal(again.status, 409);
  });

  it('SIGTERM leaves a queued run queued (its waiting caller hears 503); another instance runs it', async () => {
    const long = await createTask('long', 3_000);
    const quick = await createTask('quick', 100);
    const busy = [await startAsync(api, long), await startAsync(api, long)];
    await bothRunning(busy);
    const waiting = full.call('POST', `/api/tasks/${quick}/api`); // queued: both workers are busy
    const queued = await until('the run queued', async () => (await api.call('GET', `/api/executions?taskId=${quick}&status=queued`)).body as any[],
      (list) => list.length === 1, 10_000);
    assert.equal(await full.proc.stop('SIGTERM'), 0);
    const answer = await waiting;
    assert.deepEqual([answer.status, answer.body.error], [503, 'SHUTTING_DOWN'], answer.text);
    const id = queued[0].executionId as string;
    await until('the queued run ran on the worker', () => statusOf(id), (s) => s === 'success', 30_000);
    assert.ok(worker.ran(id));
    assert.ok(busy.every((run) => worker.ran(run) || full.ran(run)));
    assert.deepEqual(await Promise.all(busy.map(statusOf)), ['success', 'success'], 'the stopped instance finished its run within the grace');
  });
});
