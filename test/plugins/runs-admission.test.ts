// Admission (issue 24, 4): GET /api/capabilities reports the limits and how they were computed; a small cgroup
// memory (TASKLOOM_CGROUP_ROOT pointing at fake files) lowers the computed concurrency; a burst beyond
// MAX_QUEUED_RUNS is refused with 429 QUEUE_FULL and Retry-After at once, and every accepted run ends.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { makeTempDir, setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const ENDED = ['success', 'error', 'timeout', 'cancelled', 'interrupted'];

/** A service on a fake cgroup of `memoryMb` and `cpus`, without MAX_CONCURRENT_RUNS. */
async function onCgroup(memoryMb: number | 'max', cpus: number, env: Record<string, string> = {}) {
  const root = await makeTempDir('taskloom-cgroup-');
  await fs.writeFile(path.join(root, 'memory.max'), memoryMb === 'max' ? 'max\n' : `${memoryMb * 1024 * 1024}\n`);
  await fs.writeFile(path.join(root, 'cpu.max'), `${cpus * 100000} 100000\n`);
  const svc = await startService({ TASKLOOM_CGROUP_ROOT: root, ...env });
  const { apiKey } = await setupAdmin(svc);
  const capabilities = await svc.request('GET', '/api/capabilities', { apiKey });
  assert.equal(capabilities.status, 200, capabilities.text);
  return { svc, apiKey, runs: capabilities.body.runs, body: capabilities.body };
}

describe('admission: computed limits', () => {
  it('asks for credentials', async () => {
    const svc = await startService();
    try {
      await setupAdmin(svc);
      assert.equal((await svc.request('GET', '/api/capabilities')).status, 401);
    } finally {
      await svc.close();
    }
  });

  it('computes fewer runs at once on a small cgroup memory, and reports how', async () => {
    const roomy = await onCgroup('max', 2);
    const small = await onCgroup(1024, 2);
    try {
      assert.equal(roomy.runs.source, 'computed');
      assert.equal(roomy.runs.configured, null);
      assert.equal(roomy.runs.maxConcurrentRuns, Math.min(2, roomy.runs.computed.byMemory));
      assert.equal(roomy.runs.host.memorySource, 'os.totalmem()');
      assert.equal(small.runs.host.memoryMb, 1024);
      assert.match(small.runs.host.memorySource, /memory\.max$/);
      assert.equal(small.runs.memoryEstimate, 'default');
      assert.equal(small.runs.memoryPerRunMb, 512);
      assert.equal(small.runs.computed.byMemory, 1, '(1024 - 512 reserve) / 512');
      assert.equal(small.runs.maxConcurrentRuns, 1);
      assert.ok(small.runs.maxConcurrentRuns < roomy.runs.maxConcurrentRuns, 'the small memory lowers it');
      assert.match(small.runs.computed.explanation, /by memory/);
      assert.equal(small.runs.queue.maxQueuedRuns, 100, 'the default bound');
      assert.equal(small.runs.queue.provider, 'memory');
      assert.deepEqual(small.body.browser.engines.sort(), ['playwright', 'puppeteer']);
    } finally {
      await roomy.svc.close();
      await small.svc.close();
    }
  });

  it('reports MAX_CONCURRENT_RUNS when it is set, beside what it would compute', async () => {
    const set = await onCgroup(1024, 2, { MAX_CONCURRENT_RUNS: '5', MAX_QUEUED_RUNS: '7', RUN_MEMORY_ESTIMATE_MB: '256' });
    try {
      assert.deepEqual([set.runs.maxConcurrentRuns, set.runs.source, set.runs.configured], [5, 'MAX_CONCURRENT_RUNS', 5]);
      assert.equal(set.runs.computed.byMemory, 2, '(1024 - 512) / 256');
      assert.equal(set.runs.memoryEstimate, 'RUN_MEMORY_ESTIMATE_MB');
      assert.equal(set.runs.queue.maxQueuedRuns, 7);
    } finally {
      await set.svc.close();
    }
  });
});

describe('admission: a burst beyond the queue bound', { skip: chromium.skip }, () => {
  let pages: PagesServer;
  let svc: TestService;
  let apiKey: string;
  before(async () => {
    pages = await startPagesServer();
    // One slot computed from a 1 GB cgroup, three waiting at most.
    ({ svc, apiKey } = await onCgroup(1024, 2, { ALLOW_PRIVATE_NETWORKS: 'true', MAX_QUEUED_RUNS: '3' }));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('refuses runs beyond MAX_QUEUED_RUNS at once (429 QUEUE_FULL, Retry-After), and every accepted run ends', async () => {
    const task = await svc.request('POST', '/api/tasks', {
      apiKey, body: { name: 'burst', mode: 'agent', url: `${pages.origin}/`, actions: [{ type: 'wait', value: '1200' }] },
    });
    const started = Date.now();
    const burst = await Promise.all(Array.from({ length: 12 }, () => svc.request('POST', `/api/tasks/${task.body.id}/api`, {
      apiKey, headers: { prefer: 'respond-async' },
    })));
    const accepted = burst.filter((res) => res.status === 202);
    const refused = burst.filter((res) => res.status === 429);
    assert.equal(accepted.length + refused.length, 12, burst.map((res) => res.status).join(','));
    assert.ok(accepted.length >= 3 && accepted.length <= 5, `accepted ${accepted.length}: 3 waiting, 1 or 2 taken by the worker`);
    for (const res of refused) {
      assert.equal(res.body.error, 'QUEUE_FULL');
      assert.match(res.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    }
    // A caller that would wait for its answer is refused at once too, not held.
    const waiting = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey });
    assert.ok(waiting.status === 429 || waiting.status === 200, waiting.text);
    assert.ok(Date.now() - started < 60_000);
    // No run lost or stuck: each accepted one ends.
    for (const res of accepted) {
      const deadline = Date.now() + 90_000;
      let status = '';
      while (!ENDED.includes(status)) {
        assert.ok(Date.now() < deadline, `${res.body.executionId} is still ${status}`);
        status = (await svc.request('GET', `/api/executions/${res.body.executionId}`, { apiKey })).body.status;
        if (!ENDED.includes(status)) await sleep(200);
      }
      assert.equal(status, 'success');
    }
    const capabilities = (await svc.request('GET', '/api/capabilities', { apiKey })).body.runs;
    assert.equal(capabilities.queue.queued, 0);
    assert.ok(capabilities.runsObserved >= accepted.length, 'run times are observed');
    assert.ok(capabilities.averageRunMs >= 1200 && capabilities.averageRunMs < 30_000, `the moving run time ${capabilities.averageRunMs} ms`);
    // Three runs or more of 1.2 s one after another: the browser was measured (every 2 s while runs run).
    assert.equal(capabilities.memoryEstimate, 'measured');
    assert.ok(capabilities.memorySamples >= 1 && capabilities.memoryPerRunMb >= 32, JSON.stringify(capabilities));
    // The queue has room again.
    const again = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.status, 'success');
  });
});
