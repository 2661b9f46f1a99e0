// The scheduler contract's fixture for the engine-backed schedulers (pg-boss, bullmq): fresh fire queues on one
// engine connection opened before the contract mocks the clock, and a `settle` that waits for the engine.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { JobHandler, JobQueue, WorkerOptions } from '../../../kernel/contracts/queue.js';
import type { Scheduler } from '../../../kernel/contracts/scheduler.js';
import { createQueuedScheduler } from '../../../providers/scheduler/shared/queued-scheduler.js';
import type { SchedulerFactory } from '../../../testing/scheduler.contract.js';
import type { EngineChildArgs } from './engine-child.js';

/** How long `settle` waits for the engine before failing the case. */
const SETTLE_LIMIT_MS = 15_000;

/**
 * Watches a queue: which fires were added and not yet handed to a worker's handler, and which handlers settled
 * while their job is still active in the engine. Ids, not counts: two schedulers may both be told they added one.
 */
export function watchQueue(queue: JobQueue) {
  const enqueuing = new Set<Promise<unknown>>();
  const added = new Set<string>();
  const delivered = new Set<string>();
  const ending = new Map<string, string>();
  const watched: JobQueue = {
    id: queue.id,
    capabilities: queue.capabilities,
    enqueue(name, payload, options) {
      const adding = queue.enqueue(name, payload, options).then((id) => {
        if (id !== null && !delivered.has(id)) added.add(id);
        return id;
      });
      enqueuing.add(adding);
      void adding.finally(() => enqueuing.delete(adding)).catch(() => undefined);
      return adding;
    },
    work<P>(name: string, options: WorkerOptions, handler: JobHandler<P>) {
      return queue.work<P>(name, options, async (job) => {
        delivered.add(job.id);
        added.delete(job.id);
        try {
          await handler(job);
        } finally {
          ending.set(job.id, name);
        }
      });
    },
    cancel: (name, id) => queue.cancel(name, id),
    state: (name, id) => queue.state(name, id),
    stop: () => queue.stop(),
  };

  async function settle(): Promise<void> {
    const deadline = performance.now() + SETTLE_LIMIT_MS; // not mocked
    for (;;) {
      await Promise.allSettled([...enqueuing]);
      for (const [id, name] of [...ending]) {
        const state = await queue.state(name, id);
        if (state !== 'active' && state !== 'queued') ending.delete(id);
      }
      if (enqueuing.size === 0 && added.size === 0 && ending.size === 0) return;
      if (performance.now() > deadline) {
        throw new Error(`the engine did not settle within ${SETTLE_LIMIT_MS} ms: ${added.size} fires undelivered, ${ending.size} not ended`);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  return { queue: watched, settle };
}

/**
 * A factory for `schedulerContract`: each fixture gets fire queues of its own on `queue` (opened once, before any
 * case mocks the clock), a peer on the same fires, and the child spec for the kill -9 case.
 */
export function engineSchedulerFactory(id: 'pg-boss' | 'bullmq', queue: JobQueue, logger: Logger, child: Omit<EngineChildArgs, 'queueName' | 'leaseMs'>): SchedulerFactory {
  return async () => {
    const queueName = `fires-${randomBytes(6).toString('hex')}`;
    const { queue: watched, settle } = watchQueue(queue);
    const open: Scheduler[] = [];
    const create = () => {
      const scheduler = createQueuedScheduler({ id, queue: watched, logger, queueName });
      open.push(scheduler);
      return scheduler;
    };
    return {
      scheduler: create(),
      settle,
      peer: async () => create(),
      child: {
        module: path.resolve('test/providers/scheduler/engine-child.ts'),
        exportName: 'openEngineScheduler',
        args: { ...child, queueName, leaseMs: 2_000 } satisfies EngineChildArgs,
      },
      close: async () => { await Promise.all(open.map((scheduler) => scheduler.stop())); },
    };
  };
}
