import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { JobQueue } from '../../../kernel/contracts/queue.js';
import { CONTRACT_VERSIONS } from '../../../kernel/contracts/provider.js';
import { bullmqQueue } from '../../../providers/queue/bullmq/index.js';
import { connectionOf, createBullmqQueue } from '../../../providers/queue/bullmq/bullmq-queue.js';
import { queueContract } from '../../../testing/queue.contract.js';
import { createTcpProxy } from '../../support/tcp-proxy.js';
import { silentLogger } from './silent-logger.js';

/** The Redis the tests use: TEST_REDIS_URL, or the local one. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisUnavailable(): Promise<string | false> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 3000 });
    socket.once('connect', () => { socket.end(); resolve(false); });
    const fail = (why: string) => { socket.destroy(); resolve(`Redis is not reachable at ${hostname}:${port} (${why}): start it, or set TEST_REDIS_URL`); };
    socket.once('timeout', () => fail('timeout'));
    socket.once('error', (error) => fail(error.message));
  });
}

const unavailable = await redisUnavailable();
if (unavailable) {
  describe('bullmq queue', () => { it('needs Redis', (t) => { t.skip(unavailable); }); });
} else {
  const opened: JobQueue[] = [];
  const prefixes: string[] = [];
  after(async () => {
    await Promise.all(opened.map((q) => q.stop()));
    // Nothing left behind in the shared Redis.
    const redis = new Redis(REDIS_URL);
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    await redis.quit();
  });

  // Each fixture: a key prefix of its own, so cases never see each other's jobs (and leave nothing shared behind).
  queueContract('bullmq', async () => {
    const prefix = `taskloom-test-${randomBytes(5).toString('hex')}`;
    prefixes.push(prefix);
    return {
      open: async () => {
        const queue = await createBullmqQueue({ url: REDIS_URL, prefix, logger: silentLogger });
        opened.push(queue);
        return queue;
      },
      child: { module: path.resolve('providers/queue/bullmq/index.ts'), exportName: 'bullmqQueue', config: { REDIS_URL, QUEUE_PREFIX: prefix } },
      close: async () => {},
    };
  });

  describe('bullmq queue', () => {
    it('is the provider `bullmq` of the queue capability, durable', async () => {
      assert.equal(bullmqQueue.capability, 'queue');
      assert.equal(bullmqQueue.contractVersion, CONTRACT_VERSIONS.queue);
      prefixes.push('taskloom-test-caps');
      const queue = await createBullmqQueue({ url: REDIS_URL, prefix: 'taskloom-test-caps', logger: silentLogger });
      opened.push(queue);
      assert.equal(queue.capabilities.durable, true);
    });

    it('rejects an enqueue at once while Redis is away, and enqueues again once it is back', async () => {
      const { hostname, port } = new URL(REDIS_URL);
      const proxy = createTcpProxy(hostname, Number(port || 6379));
      await proxy.up();
      prefixes.push('taskloom-test-outage');
      const queue = await createBullmqQueue({ url: `redis://127.0.0.1:${proxy.port}`, prefix: 'taskloom-test-outage', logger: silentLogger });
      opened.push(queue);
      assert.equal(typeof await queue.enqueue('outage', { n: 1 }), 'string');
      await proxy.down();
      const started = Date.now();
      await assert.rejects(queue.enqueue('outage', { n: 2 }));
      assert.ok(Date.now() - started < 3_000, `rejected after ${Date.now() - started} ms`);
      await proxy.up();
      let back: string | null = null;
      for (let i = 0; i < 100 && back === null; i += 1) {
        back = await queue.enqueue('outage', { n: 3 }).catch(() => null);
        if (back === null) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(typeof back, 'string', 'enqueued again once Redis was back');
      await proxy.down();
    });

    it('reads user, password, database and TLS out of REDIS_URL', () => {
      assert.deepEqual(connectionOf('rediss://user:p%40ss@redis.example:6380/3'), {
        host: 'redis.example', port: 6380, username: 'user', password: 'p@ss', db: 3, tls: {}, maxRetriesPerRequest: null,
      });
      assert.deepEqual(connectionOf('redis://127.0.0.1'), { host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null });
    });
  });
}
