import type { Logger } from '../../kernel/contracts/logger.js';
import type { JobQueue } from '../../kernel/contracts/queue.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { jobIdOf } from '../../layers/execution-requeue/requeued-record.js';
import type { Requeuer } from './run-requeue.js';
import { RUN_QUEUE } from './run-worker.js';

export const RECONCILE_EVERY_MS = 15_000;
/** Queued records looked at per pass (newest first). */
const PASS_LIMIT = 500;

/**
 * With a shared queue, starting a run is two writes: the `queued` record, then its job (on another system with
 * BullMQ). A process that dies between them, or a run sent back to the queue whose enqueue failed (or that the
 * executions sweep queued again after its instance died), leaves a queued record without a job. This finds them
 * and enqueues their turn under its deterministic job id (`jobIdOf`): an id already in the queue adds nothing, so
 * a pass racing the original enqueue, or another instance's pass, never makes a second job, and the claim
 * (run-fence.ts) keeps any run from starting twice.
 */
export function createReconciler(deps: { queue: JobQueue; store: ExecutionStore; requeuer: Requeuer; logger: Logger }) {
  const { queue, store, requeuer, logger } = deps;

  /** One pass; resolves to how many runs got a job. */
  async function pass(): Promise<number> {
    let enqueued = 0;
    for (const record of await store.list({ status: 'queued', limit: PASS_LIMIT })) {
      if (record.instanceId !== undefined) continue; // a run held by one instance (a browser session's): not queued
      if ((await queue.state(RUN_QUEUE, jobIdOf(record))) !== undefined) continue;
      if (!(await requeuer.enqueue(record))) continue;
      enqueued++;
      logger.warn({ executionId: record.executionId, jobId: jobIdOf(record) }, 'a queued run had no job in the queue (its instance stopped before enqueueing it): enqueued now');
    }
    return enqueued;
  }

  return {
    pass,

    /** A pass now, then every `everyMs` until the returned function is called; a failed pass is logged. */
    every(everyMs = RECONCILE_EVERY_MS): () => void {
      let running = false;
      const run = () => {
        if (running) return;
        running = true;
        pass()
          .catch((error: unknown) => logger.warn({ err: error }, 'looking for queued runs without a job failed; trying again later'))
          .finally(() => { running = false; });
      };
      run();
      const timer = setInterval(run, everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
