// Retries after a dead worker: two service processes on one PostgreSQL database and one shared queue; a task that
// asks for `retries: { max: 1 }` is running on one of them when it is killed -9. Instead of ending `interrupted`,
// the run goes back to the queue (its job given back by the engine, or the instances' sweep) and the other instance
// runs it to `success` in the same execution, as attempt 2, with the first attempt's fate in its log. Real
// processes, real Chromium, a fresh database. (Without the option the run ends `interrupted`: queue-chaos.test.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { createCluster, queueUnavailable, until, type Cluster, type Member } from './queue-cluster.js';

const chromium = chromiumOrSkip();
const queue = 'pg-boss';
const skip = chromium.skip || (await queueUnavailable(queue));

describe(`kill -9 of the instance running a run whose task asks for retries, QUEUE=${queue}`, { skip, timeout: 150_000 }, () => {
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

  it('the run is queued again and completes on the other instance as attempt 2', async (t) => {
    const task = await a.call('POST', '/api/tasks', {
      body: { name: 'retried', url: `${pages.origin}/index.html`, mode: 'agent', actions: [{ type: 'wait', value: '8000' }], retries: { max: 1 } },
    });
    assert.equal(task.status, 200, task.text);
    const started = await a.call('POST', `/api/tasks/${task.body.id}/api`, { headers: { prefer: 'respond-async' } });
    assert.equal(started.status, 202, started.text);
    const id = started.body.executionId as string;
    const recordOn = async (member: Member) => (await member.call('GET', `/api/executions/${id}`)).body;
    await until('the run running', () => recordOn(a), (r) => r.status === 'running', 60_000);
    // The holder says so in its log, which can come a moment after the record says running.
    const victim = (await until('an instance to log that it runs it', async () => (a.ran(id) ? a : b.ran(id) ? b : undefined),
      (member) => member !== undefined, 30_000))!;
    const survivor = victim === a ? b : a;

    assert.equal(await victim.proc.stop('SIGKILL'), null);
    const killedAt = Date.now();
    const requeued = await until('the run queued again', () => recordOn(survivor), (r) => r.status !== 'running', 75_000);
    t.diagnostic(`${queue}: ${requeued.status} (attempt ${requeued.attempt}) ${Date.now() - killedAt} ms after the kill`);
    assert.notEqual(requeued.status, 'interrupted', JSON.stringify(requeued.logs));
    const end = await until('the retry ended', () => recordOn(survivor), (r) => !['queued', 'running'].includes(r.status), 60_000);
    t.diagnostic(`${queue}: the retry ended ${end.status} ${Date.now() - killedAt} ms after the kill`);
    assert.equal(end.status, 'success', JSON.stringify(end));
    assert.equal(end.attempt, 2);
    assert.ok(survivor.ran(id), 'the other instance ran it');
    const lines = end.logs.map((line: { message: string }) => line.message);
    assert.ok(lines.includes('the instance running it stopped: retrying (attempt 2 of 2)'), lines.join('\n'));
    const how = survivor.proc.output().split('\n').find((line) => line.includes(id) && /queued again/.test(line));
    t.diagnostic(`queued again by: ${how ? JSON.parse(how).msg : 'no log line'}`);
    const runs = (await survivor.call('GET', `/api/executions?taskId=${task.body.id}`)).body;
    assert.equal(runs.length, 1, 'one execution');
  });
});
