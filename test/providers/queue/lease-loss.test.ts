// A worker cut off from its engine (a black-holed TCP proxy: no reset, no answer) tells the handler of each job it
// holds to stop (QueueJob.signal) at about half the lease, before the engine may give the job to another worker:
// pg-boss (PostgreSQL) and BullMQ (Redis).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { JobQueue } from '../../../kernel/contracts/queue.js';
import { createBullmqQueue } from '../../../providers/queue/bullmq/bullmq-queue.js';
import { createPgBossQueue } from '../../../providers/queue/pg-boss/pg-boss-queue.js';
import { queueUnavailable, REDIS_URL } from '../../e2e/queue-cluster.js';
import { createTestDatabase } from '../../support/postgres-database.js';
import { createTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { silentLogger } from './silent-logger.js';

const LEASE_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Engine {
  name: 'pg-boss' | 'bullmq';
  /** The engine's host and port, and a queue opened at `url` (through a proxy, or direct). */
  target(): Promise<{ host: string; port: number; open(port?: number): Promise<JobQueue>; close(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'pg-boss',
    async target() {
      const db = await createTestDatabase('taskloom_lease');
      const url = new URL(db.url());
      return { host: url.hostname, port: Number(url.port || 5432), open: (port) => createPgBossQueue({ url: db.url(port), logger: silentLogger }), close: () => db.drop() };
    },
  },
  {
    name: 'bullmq',
    async target() {
      const url = new URL(REDIS_URL);
      const prefix = `taskloom-lease-${randomBytes(4).toString('hex')}`;
      const at = (port?: number) => { const copy = new URL(REDIS_URL); if (port) copy.host = `127.0.0.1:${port}`; return copy.toString(); };
      return { host: url.hostname, port: Number(url.port || 6379), open: (port) => createBullmqQueue({ url: at(port), logger: silentLogger, prefix }), close: async () => {} };
    },
  },
];

for (const engine of engines) {
  const skip = await queueUnavailable(engine.name);
  describe(`a ${engine.name} worker cut off from its engine`, { skip, timeout: 60_000 }, () => {
    const opened: JobQueue[] = [];
    let proxy: TcpProxy | undefined;
    let target: Awaited<ReturnType<Engine['target']>> | undefined;
    after(async () => {
      await proxy?.down();
      await Promise.all(opened.map((queue) => queue.stop().catch(() => undefined)));
      await target?.close();
    });

    it('tells the job\'s handler to stop at about half the lease, not before', async (t) => {
      target = await engine.target();
      proxy = createTcpProxy(target.host, target.port);
      await proxy.up();
      const [direct, cut] = [await target.open(), await target.open(proxy.port)];
      opened.push(direct, cut);
      const q = `lease_${randomBytes(4).toString('hex')}`;
      let signal: AbortSignal | undefined;
      let abortedAt = 0;
      const worker = await cut.work(q, { concurrency: 1, leaseMs: LEASE_MS }, async (job) => {
        signal = job.signal;
        await new Promise<void>((resolve) => {
          job.signal?.addEventListener('abort', () => { abortedAt = Date.now(); resolve(); }, { once: true });
          setTimeout(resolve, 30_000);
        });
      });
      await direct.enqueue(q, { v: 1 });
      while (!signal) await sleep(10);
      await sleep(LEASE_MS); // a full lease: renewals keep it held
      assert.equal(signal.aborted, false, 'held while renewed');
      proxy.blackhole();
      const cutAt = Date.now();
      while (!signal.aborted && Date.now() - cutAt < 10_000) await sleep(10);
      const after = abortedAt - cutAt;
      t.diagnostic(`${engine.name}: told to stop ${after} ms after the cut (lease ${LEASE_MS} ms)`);
      assert.ok(signal.aborted, 'told to stop');
      assert.ok(after < LEASE_MS, `before the lease could lapse (${after} ms)`);
      assert.match(String((signal.reason as Error).message), /lease is lost/);
      // Reachable again (the swallowed connections closed, new ones pass), so the worker can record the job's end and stop.
      await proxy.down();
      await proxy.up();
      await worker.stop();
    });
  });
}
