// The bar every queue provider meets: `queueContract('my-queue', factory)`, the factory opening a fresh, isolated
// namespace on the engine (worked examples: test/providers/queue/*.test.ts). Queue names are unique per case.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { JobQueue, QueueJob } from '../kernel/contracts/queue.js';
import { spawnQueueWorker, type QueueChildSpec } from './queue-child.js';
import { delayCases } from './queue-delay-cases.js';
import { leaseCases } from './queue-lease-cases.js';
import { topicCases } from './queue-topic-cases.js';

export interface QueueFixture {
  /**
   * A queue on the fixture's namespace. On a durable engine each call opens a new instance (as another process
   * would, with its own connections); the in-process provider gives the same one.
   */
  open(): Promise<JobQueue>;
  /** How a child process builds the same queue, so a worker can be killed -9 (durable engines only). */
  child?: QueueChildSpec;
  /** Stops what `open` gave and drops the namespace. */
  close(): Promise<void>;
}
export type QueueFixtureFactory = () => Promise<QueueFixture>;

const LEASE_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const queueName = () => `q_${randomBytes(5).toString('hex')}`;

/** Resolves once `test()` holds (checked every 10 ms), or fails after `ms`. */
async function until(test: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export function queueContract(name: string, factory: QueueFixtureFactory): void {
  describe(`queue contract: ${name}`, () => {
    const fixtures: QueueFixture[] = [];
    const setup = async () => {
      const fixture = await factory();
      fixtures.push(fixture);
      return fixture;
    };
    after(async () => { await Promise.all(fixtures.map((f) => f.close())); });
    topicCases(name, setup);
    leaseCases(name, setup, LEASE_MS);
    delayCases(name, setup);

    it('delivers every job exactly once across concurrent workers', async () => {
      const fixture = await setup();
      const q = queueName();
      const seen = new Map<string, number>();
      const handler = async (job: QueueJob<{ n: number }>) => {
        seen.set(job.id, (seen.get(job.id) ?? 0) + 1);
        await sleep(Math.random() * 5);
      };
      const queues = await Promise.all([fixture.open(), fixture.open(), fixture.open()]);
      const workers = await Promise.all(queues.map((queue) => queue.work(q, { concurrency: 4 }, handler)));
      const ids = await Promise.all(Array.from({ length: 60 }, (_, n) => queues[n % 3]!.enqueue(q, { n })));
      await until(() => seen.size === 60, 20_000, 'all 60 jobs handled');
      await sleep(200); // a second delivery would show now
      assert.deepEqual([...seen.keys()].sort(), [...ids].sort());
      assert.ok([...seen.values()].every((count) => count === 1), 'no job was handled twice');
      await Promise.all(workers.map((w) => w.stop()));
      for (const id of ids.slice(0, 5)) assert.equal(await queues[0]!.state(q, id!), 'completed');
    });

    it('never holds more jobs than its concurrency, and uses all of it', async () => {
      const fixture = await setup();
      const queue = await fixture.open();
      const q = queueName();
      let now = 0;
      let most = 0;
      let done = 0;
      for (let n = 0; n < 8; n += 1) await queue.enqueue(q, { n });
      const worker = await queue.work(q, { concurrency: 2 }, async () => {
        most = Math.max(most, ++now);
        await sleep(60);
        now--;
        done++;
      });
      await until(() => worker.held === 2, 10_000, 'two jobs held');
      await until(() => done === 8, 10_000, '8 jobs done');
      assert.equal(most, 2);
      await until(() => worker.held === 0, 5_000, 'every job settled');
      await worker.stop();
    });

    it('hands jobs over first in, first out', async () => {
      const fixture = await setup();
      const queue = await fixture.open();
      const q = queueName();
      for (let n = 0; n < 5; n += 1) await queue.enqueue(q, { n });
      const order: number[] = [];
      const worker = await queue.work<{ n: number }>(q, { concurrency: 1 }, async (job) => { order.push(job.payload.n); });
      await until(() => order.length === 5, 10_000, '5 jobs');
      assert.deepEqual(order, [0, 1, 2, 3, 4]);
      await worker.stop();
    });

    it('adds nothing for a key whose job is queued or held, and again once it ended; nor for an id in use', async () => {
      const fixture = await setup();
      const queue = await fixture.open();
      const q = queueName();
      const first = await queue.enqueue(q, { v: 1 }, { key: 'task-1' });
      assert.equal(typeof first, 'string');
      assert.equal(await queue.enqueue(q, { v: 2 }, { key: 'task-1' }), null, 'queued: refused');
      assert.equal(typeof await queue.enqueue(q, { v: 3 }, { key: 'task-2' }), 'string', 'another key is another job');
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      const payloads: unknown[] = [];
      const worker = await queue.work(q, { concurrency: 2 }, async (job) => {
        payloads.push(job.payload);
        if ((job.payload as { v: number }).v === 1) await held;
      });
      await until(async () => (await queue.state(q, first!)) === 'active', 10_000, 'the keyed job held');
      assert.equal(await queue.enqueue(q, { v: 4 }, { key: 'task-1' }), null, 'held: refused');
      release();
      await until(async () => (await queue.state(q, first!)) === 'completed', 10_000, 'the keyed job completed');
      assert.equal(typeof await queue.enqueue(q, { v: 5 }, { key: 'task-1' }), 'string', 'ended: accepted');
      assert.equal(await queue.enqueue(q, { v: 6 }, { id: first! }), null, 'an id in use adds nothing');
      await until(() => payloads.length === 3, 10_000, 'three jobs');
      assert.deepEqual(payloads.map((p) => (p as { v: number }).v).sort(), [1, 3, 5]);
      await worker.stop();
    });

    it('cancels a queued job (never delivered), and refuses held, ended and unknown ones', async () => {
      const fixture = await setup();
      const queue = await fixture.open();
      const q = queueName();
      const doomed = await queue.enqueue(q, { v: 'doomed' }, { id: 'exec_doomed-1' });
      assert.equal(doomed, 'exec_doomed-1', 'the caller\'s id is the job\'s');
      const kept = (await queue.enqueue(q, { v: 'kept' }))!;
      assert.equal(await queue.cancel(q, doomed!), true);
      assert.equal(await queue.state(q, doomed!), 'cancelled');
      assert.equal(await queue.cancel(q, doomed!), false, 'twice');
      assert.equal(await queue.cancel(q, 'no-such-job'), false);
      assert.equal(await queue.state(q, 'no-such-job'), undefined);
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      const delivered: string[] = [];
      const worker = await queue.work(q, { concurrency: 1 }, async (job) => { delivered.push(job.id); await held; });
      await until(async () => (await queue.state(q, kept)) === 'active', 10_000, 'the kept job held');
      assert.equal(await queue.cancel(q, kept), false, 'held');
      assert.equal(await queue.state(q, kept), 'active');
      release();
      await until(async () => (await queue.state(q, kept)) === 'completed', 10_000, 'the kept job completed');
      assert.equal(await queue.cancel(q, kept), false, 'ended');
      assert.deepEqual(delivered, [kept]);
      await worker.stop();
    });

    it('fails a job whose handler rejects, once, and hands over the payload as JSON', async () => {
      const fixture = await setup();
      const queue = await fixture.open();
      const q = queueName();
      const deliveries: QueueJob[] = [];
      const worker = await queue.work(q, { concurrency: 1, leaseMs: LEASE_MS }, async (job) => {
        deliveries.push(job);
        throw new Error('the handler failed');
      });
      const id = (await queue.enqueue(q, { when: new Date(0), nested: { list: [1, 'two'] } }))!;
      await until(async () => (await queue.state(q, id)) === 'failed', 10_000, 'the job failed');
      await sleep(LEASE_MS * 2);
      assert.equal(deliveries.length, 1, 'never delivered again');
      assert.deepEqual(deliveries[0]!.payload, { when: '1970-01-01T00:00:00.000Z', nested: { list: [1, 'two'] } });
      assert.equal(deliveries[0]!.attempt, 1);
      assert.equal(deliveries[0]!.queue, q);
      await worker.stop();
    });

    it('stop takes no more jobs, waits for the held ones, and leaves the rest queued for others', async () => {
      const fixture = await setup();
      const first = await fixture.open();
      const q = queueName();
      let finished = 0;
      const worker = await first.work(q, { concurrency: 1 }, async () => { await sleep(300); finished++; });
      const ids = [];
      for (let n = 0; n < 3; n += 1) ids.push((await first.enqueue(q, { n }))!);
      await until(() => worker.held === 1, 10_000, 'a job held');
      const started = Date.now();
      await worker.stop();
      assert.ok(Date.now() - started >= 150, 'stop waited for the held job');
      assert.equal(finished, 1);
      assert.equal(await first.state(q, ids[1]!), 'queued');
      assert.equal(await first.state(q, ids[2]!), 'queued');
      const other = await fixture.open();
      const later = await other.work(q, { concurrency: 2 }, async () => { finished++; });
      await until(() => finished === 3, 10_000, 'the rest taken by another worker');
      await later.stop();
    });

    it('starts a job enqueued while a worker idles well within a polling interval (no polling delay)', async (t) => {
      const fixture = await setup();
      const [producer, consumer] = [await fixture.open(), await fixture.open()];
      const q = queueName();
      const startedAt = new Map<string, number>();
      const worker = await consumer.work(q, { concurrency: 1 }, async (job) => { startedAt.set(job.id, performance.now()); });
      await sleep(300); // idle: any poll has run once
      const delays: number[] = [];
      for (let n = 0; n < 15; n += 1) {
        const sent = performance.now();
        const id = (await producer.enqueue(q, { n }))!;
        await until(() => startedAt.has(id), 5_000, 'the job started');
        delays.push(startedAt.get(id)! - sent);
        await sleep(20 + Math.random() * 30);
      }
      const mid = median(delays);
      t.diagnostic(`${name}: enqueue to handler start, median ${mid.toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms`);
      // A polling engine waits its interval (pg-boss: 0.5 s at the least); a loaded machine adds tens of ms.
      assert.ok(mid < 250, `median ${mid.toFixed(1)} ms`);
      await worker.stop();
    });

    it('gives back the jobs of a worker killed -9 after its lease, delivered again with a higher attempt', async (t) => {
      const fixture = await setup();
      if (!fixture.child) {
        t.skip(`${name} is not durable: its jobs live and die with the process, there is no other worker to give them to`);
        return;
      }
      const queue = await fixture.open();
      const q = queueName();
      const id = (await queue.enqueue(q, { v: 'survivor' }))!;
      const child = await spawnQueueWorker(fixture.child, q, LEASE_MS);
      assert.equal(await child.took, id, 'the child took the job');
      child.kill();
      assert.equal(await queue.state(q, id), 'active', 'still held by the dead worker');
      const killedAt = Date.now();
      const deliveries: QueueJob[] = [];
      const worker = await queue.work(q, { concurrency: 1, leaseMs: LEASE_MS }, async (job) => { deliveries.push(job); });
      await until(() => deliveries.length === 1, 15_000, 'the job given back');
      t.diagnostic(`${name}: given back ${Date.now() - killedAt} ms after the kill (lease ${LEASE_MS} ms)`);
      assert.equal(deliveries[0]!.id, id);
      assert.equal(deliveries[0]!.attempt, 2);
      assert.deepEqual(deliveries[0]!.payload, { v: 'survivor' });
      await until(async () => (await queue.state(q, id)) === 'completed', 5_000, 'completed');
      await worker.stop();
    });
  });
}
