// What the contract's kill -9 child opens (testing/scheduler-child-main.ts): an engine-backed scheduler on its own
// connection to the engine, sharing the fixture's fire queue.
import type { Scheduler } from '../../../kernel/contracts/scheduler.js';
import { createQueuedScheduler } from '../../../providers/scheduler/shared/queued-scheduler.js';
import { silentLogger } from '../queue/silent-logger.js';

export interface EngineChildArgs {
  engine: 'pg-boss' | 'bullmq';
  /** DATABASE_URL or REDIS_URL. */
  url: string;
  /** BullMQ's key prefix. */
  prefix?: string;
  queueName: string;
  leaseMs: number;
}

export async function openEngineScheduler(args: EngineChildArgs): Promise<Scheduler> {
  const queue = args.engine === 'pg-boss'
    ? await (await import('../../../providers/queue/pg-boss/pg-boss-queue.js')).createPgBossQueue({ url: args.url, logger: silentLogger })
    : await (await import('../../../providers/queue/bullmq/bullmq-queue.js')).createBullmqQueue({ url: args.url, prefix: args.prefix, logger: silentLogger });
  return createQueuedScheduler({ id: args.engine, queue, logger: silentLogger, queueName: args.queueName, leaseMs: args.leaseMs });
}
