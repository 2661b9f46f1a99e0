// Fencing with a shared queue (QUEUE=pg-boss): instance A, reaching PostgreSQL through a TCP proxy, runs a long
// task; the proxy then swallows every byte for 90 s (no reset: a partition). A stops its run at half its lease
// (15 s) and says so to its own stream; B takes A for dead only after the lease (30 s) and marks the run
// `interrupted`; a second run of the same task then starts on B. Ground truth comes from the page itself, which
// beacons to this test every 200 ms while open: the two runs never beacon at once. When A reaches the database
// again its late end is refused, so the record's first end (`interrupted`) stays: its status is sampled all along
// and never moves back. Real processes, real Chromium, a fresh database.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { openSse } from '../support/sse-reader.js';
import { createTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { createCluster, queueUnavailable, until, type Cluster, type Member } from './queue-cluster.js';

const skip = chromiumOrSkip().skip || (await queueUnavailable('pg-boss'));
const CUT_MS = 90_000;

/** Serves a page that beacons `/ping?page=<random id>` every 200 ms while it is open; records each beacon's time. */
async function startBeacons() {
  const beacons: Array<{ page: string; at: number }> = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/ping') {
      beacons.push({ page: url.searchParams.get('page') ?? '?', at: Date.now() });
      res.writeHead(204).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>beacon</title><script>
      const page = Math.random().toString(36).slice(2);
      setInterval(() => fetch('/ping?page=' + page).catch(() => {}), 200);
    </script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** Each page's first and last beacon. */
  const spans = () => {
    const byPage = new Map<string, { from: number; to: number }>();
    for (const { page, at } of beacons) {
      const span = byPage.get(page);
      if (span) span.to = at;
      else byPage.set(page, { from: at, to: at });
    }
    return byPage;
  };
  return { origin, spans, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('an instance cut off from PostgreSQL for 90 s while it runs a long task (QUEUE=pg-boss)', { skip, timeout: 300_000 }, () => {
  let cluster: Cluster;
  let beacons: Awaited<ReturnType<typeof startBeacons>>;
  let proxy: TcpProxy;
  let a: Member, b: Member;

  before(async () => {
    beacons = await startBeacons();
    cluster = await createCluster('pg-boss');
    const target = new URL(cluster.dbUrl());
    proxy = createTcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.up();
  });
  after(async () => {
    await cluster?.close();
    await proxy?.down();
    await beacons?.close();
  });

  it('never runs the task twice at once, and the record\'s first end stays', async (t) => {
    a = await cluster.spawn('a', { DATABASE_URL: cluster.dbUrl(proxy.port), MAX_CONCURRENT_RUNS: '1' });
    const task = await a.call('POST', '/api/tasks', {
      body: { name: 'long', url: `${beacons.origin}/beacon.html`, mode: 'agent', actions: [{ type: 'wait', value: '150000' }] },
    });
    assert.equal(task.status, 200, task.text);
    const start = async (on: Member) => {
      const res = await on.call('POST', `/api/tasks/${task.body.id}/api`, { headers: { prefer: 'respond-async' } });
      assert.equal(res.status, 202, res.text);
      return res.body.executionId as string;
    };
    const first = await start(a);
    const streamOnA = await openSse(`${a.proc.baseUrl}/api/executions/${first}/events`, cluster.apiKey());
    await until('the first run beaconing from A', async () => beacons.spans().size, (n) => n === 1, 60_000);
    b = await cluster.spawn('b', { MAX_CONCURRENT_RUNS: '1' });
    // B's view of the record, sampled all along: its status may only move forward.
    const statuses: string[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const res = await b.call('GET', `/api/executions/${first}`).catch(() => undefined);
        if (res?.status === 200 && statuses.at(-1) !== res.body.status) statuses.push(res.body.status);
        await sleep(200);
      }
    })();

    proxy.blackhole();
    const cutAt = Date.now();
    const onA = await streamOnA.ended; // A stops its run by itself, without its database
    const stoppedAfter = Date.now() - cutAt;
    t.diagnostic(`A ended its run ${stoppedAfter} ms into the cut, telling its stream ${onA.at(-1)?.data.status}`);
    assert.deepEqual([onA.at(-1)?.event, onA.at(-1)?.data.status], ['result', 'interrupted']);
    assert.match(onA.at(-1)!.data.result.error.message, /could not reach its storage/);
    assert.ok(stoppedAfter < 30_000, 'before its lease (30 s) could lapse');

    await until('B marks the run interrupted', async () => statuses.at(-1), (s) => s === 'interrupted', 75_000);
    t.diagnostic(`B recorded it interrupted ${Date.now() - cutAt} ms into the cut`);
    const second = await start(b); // the same task again, while A is still cut off
    await until('the second run beaconing', async () => beacons.spans().size, (n) => n === 2, 60_000);
    assert.ok(b.ran(second), 'B ran the second run');

    await sleep(Math.max(0, CUT_MS - (Date.now() - cutAt)));
    await proxy.up();
    t.diagnostic('A reaches PostgreSQL again');
    // A writes what it kept once the database answers (its retries back off up to 30 s): refused, the run having ended.
    await until('A renews its lease again', async () => a.proc.output().includes('this instance renews its lease again'), (v) => v, 60_000);
    await until('A tries its kept end again', async () => a.proc.output().includes('a kept final record was refused'), (v) => v, 60_000);
    await sleep(1_000);
    sampling = false;
    await sampler;
    await b.call('POST', `/api/executions/${second}/cancel`);

    const timeOf = (text: string) => {
      const line = a.proc.output().split('\n').find((l) => l.includes(text));
      return line ? `${(JSON.parse(line) as { time: number }).time - cutAt} ms` : 'never';
    };
    t.diagnostic(`A: lease lost ${timeOf('could not renew its lease')}, run finished ${timeOf('"run finished"')} into the cut`);
    const [firstSpan, secondSpan] = [...beacons.spans().values()].sort((x, y) => x.from - y.from);
    t.diagnostic(`the first run's page beaconed until ${firstSpan!.to - cutAt} ms into the cut; the second's from ${secondSpan!.from - cutAt} ms`);
    assert.ok(firstSpan!.to < secondSpan!.from, 'the two runs of the task never ran at once');
    assert.deepEqual(statuses.filter((s) => s !== 'queued'), ['running', 'interrupted'], `the record moved forward only: ${statuses.join(' -> ')}`);
    const stored = (await b.call('GET', `/api/executions/${first}`)).body;
    assert.equal(stored.status, 'interrupted', 'the first end recorded stays');
    assert.ok(!b.ran(first), 'the first run never ran on B');
  });
});
