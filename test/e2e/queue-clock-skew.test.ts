// Leases on the database's clock: instance A runs with its wall clock 45 s behind (a preload shifts Date in that
// process only), B with the right time, on one PostgreSQL database and QUEUE=pg-boss. A runs a 40 s task; B starts
// meanwhile (its start-up recovery looks at the leases) and sweeps once more while it runs. On the hosts' clocks
// A's lease would look lapsed to B from the start and the healthy run would be marked `interrupted`; on the
// database's clock it is live, and the run ends `success` with no other status between. Real processes, real
// Chromium, a fresh database.
import assert from 'node:assert/strict';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { createCluster, queueUnavailable, until, type Cluster, type Member } from './queue-cluster.js';

const skip = chromiumOrSkip().skip || (await queueUnavailable('pg-boss'));
const SKEW_MS = -45_000;
const SKEWED = { NODE_OPTIONS: `--import=${path.resolve('test/support/skewed-clock.mjs')}`, TASKLOOM_TEST_CLOCK_SKEW_MS: String(SKEW_MS) };

describe('an instance whose clock is 45 s behind (QUEUE=pg-boss)', { skip, timeout: 240_000 }, () => {
  let cluster: Cluster;
  let pages: PagesServer;
  let a: Member, b: Member;

  before(async () => {
    pages = await startPagesServer();
    cluster = await createCluster('pg-boss');
  });
  after(async () => {
    await cluster?.close();
    await pages?.close();
  });

  it('keeps its healthy run: leases are judged on the database clock', async (t) => {
    a = await cluster.spawn('a', { ...SKEWED, MAX_CONCURRENT_RUNS: '1' });
    const task = await a.call('POST', '/api/tasks', {
      body: { name: 'forty seconds', url: `${pages.origin}/index.html`, mode: 'agent', actions: [{ type: 'wait', value: '40000' }] },
    });
    assert.equal(task.status, 200, task.text);
    const started = await a.call('POST', `/api/tasks/${task.body.id}/api`, { headers: { prefer: 'respond-async' } });
    assert.equal(started.status, 202, started.text);
    const { executionId } = started.body as { executionId: string };
    await until('the run running on A', async () => (await a.call('GET', `/api/executions/${executionId}`)).body.status, (s) => s === 'running', 60_000);
    b = await cluster.spawn('b', { ROLE: 'api' }); // its start-up recovery judges A's lease now
    const statuses: string[] = [];
    for (;;) {
      const { status } = (await b.call('GET', `/api/executions/${executionId}`)).body as { status: string };
      if (statuses.at(-1) !== status) statuses.push(status);
      if (status !== 'queued' && status !== 'running') break;
      await sleep(250);
    }
    assert.deepEqual(statuses, ['running', 'success'], `the run was never taken from A: ${statuses.join(' -> ')}`);
    assert.ok(b.proc.output().includes('executions left queued or running') === false, 'B\'s start-up recovery interrupted nothing');
    const stored = (await b.call('GET', `/api/executions/${executionId}`)).body as { logs: Array<{ at: string }> };
    const behind = Date.now() - Date.parse(stored.logs.at(-1)!.at);
    t.diagnostic(`A's last log line is stamped ${behind} ms behind this test's clock`);
    assert.ok(behind > 40_000, 'A really ran 45 s behind');
    assert.ok(a.proc.output().includes('"clock":"storage"'), 'A reads lease times on the storage clock');
  });
});
