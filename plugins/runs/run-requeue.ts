import type { Logger } from '../../kernel/contracts/logger.js';
import type { JobQueue } from '../../kernel/contracts/queue.js';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { jobIdOf } from '../../layers/execution-requeue/requeued-record.js';
import { RUN_QUEUE } from './run-worker.js';

type Change = (record: ExecutionRecord) => ExecutionRecord | undefined;

/**
 * Puts runs (back) in the queue from their records: after a retry or a busy grid sent one back, and for the
 * reconciler. The job id is the record's turn (`jobIdOf`), so two instances enqueueing the same turn add one job.
 */
export function createRequeue(deps: { queue: JobQueue; store: ExecutionStore; logger: Logger }) {
  const { queue, store, logger } = deps;
  const timers = new Set<NodeJS.Timeout>();

  /** Enqueues the record's turn, after its `notBefore`; resolves once the queue has it (false: it refused). */
  async function enqueue(record: ExecutionRecord): Promise<boolean> {
    const notBefore = record.queueing?.notBefore;
    const delayMs = notBefore ? Math.max(0, Date.parse(notBefore) - Date.now()) : 0;
    const add = (delay: number) => queue.enqueue(RUN_QUEUE, { ...record.queueing?.job, executionId: record.executionId }, { id: jobIdOf(record), ...(delay > 0 ? { delayMs: delay } : {}) });
    try {
      if (delayMs === 0 || queue.capabilities.delay) {
        await add(delayMs);
        return true;
      }
      // A queue without delays: wait here (a crash meanwhile leaves the record queued without a job: the reconciler's).
      const timer = setTimeout(() => {
        timers.delete(timer);
        void add(0).catch((error: unknown) => logger.warn({ err: error, executionId: record.executionId }, 'enqueueing a run again failed; the reconciler tries later'));
      }, delayMs);
      timer.unref();
      timers.add(timer);
      return true;
    } catch (error) {
      logger.warn({ err: error, executionId: record.executionId }, 'enqueueing a run again failed; the reconciler tries later');
      return false;
    }
  }

  return {
    enqueue,

    /**
     * Writes `change` (it decides, fenced, whether the record goes back: undefined refuses), then enqueues the new
     * turn. Resolves to the stored record, or undefined when the change refused or storage failed (nothing queued).
     */
    async requeue(executionId: string, change: Change): Promise<ExecutionRecord | undefined> {
      let applied = false;
      const stored = await store.update(executionId, (record) => {
        const next = change(record);
        applied = next !== undefined;
        return next;
      }).catch((error: unknown) => {
        logger.warn({ err: error, executionId }, 'sending a run back to the queue failed: storage did not take it');
        return undefined;
      });
      if (!applied || !stored) return undefined;
      await enqueue(stored);
      return stored;
    },

    stop(): void {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type Requeuer = ReturnType<typeof createRequeue>;
