import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { JobQueue } from '../../../kernel/contracts/queue.js';
import { CONTRACT_VERSIONS } from '../../../kernel/contracts/provider.js';
import { bullmqScheduler } from '../../../providers/scheduler/bullmq/index.js';
import { schedulerContract } from '../../../testing/scheduler.contract.js';
import { createRecordingLogger } from '../../../testing/loggers.js';
import { engineSchedulerFactory } from './engine-fixture.js';
import { providerCases } from './engine-provider.js';
import { openRemoteQueue } from './remote-queue.js';

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
  describe('bullmq scheduler', () => { it('needs Redis', (t) => { t.skip(unavailable); }); });
} else {
  // A key prefix for the file, and BullMQ in a helper process: the contract mocks this process's clock.
  const prefix = `taskloom-test-${randomBytes(5).toString('hex')}`;
  const queue: JobQueue = await openRemoteQueue({ engine: 'bullmq', url: REDIS_URL, prefix });
  const recorded = createRecordingLogger();
  after(async () => {
    await queue.stop();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  schedulerContract('bullmq', engineSchedulerFactory('bullmq', queue, recorded, { engine: 'bullmq', url: REDIS_URL, prefix }));

  describe('bullmq scheduler', () => {
    it('is the provider `bullmq` of the scheduler capability, speaking the kernel contract version', () => {
      assert.deepEqual([bullmqScheduler.capability, bullmqScheduler.id, bullmqScheduler.contractVersion], ['scheduler', 'bullmq', CONTRACT_VERSIONS.scheduler]);
    });
    providerCases('bullmq', bullmqScheduler, queue, recorded);
  });
}
