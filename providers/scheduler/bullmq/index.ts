import { defineProvider } from '../../../kernel/contracts/provider.js';
import { SCHEDULER_CONTRACT_VERSION } from '../../../kernel/contracts/scheduler.js';
import { engineQueue } from '../shared/engine-queue.js';
import { createQueuedScheduler } from '../shared/queued-scheduler.js';

/**
 * Scheduler provider `bullmq` (the default with QUEUE=bullmq): croner's times on every instance, each fire one
 * BullMQ job (job id: task and planned time; deduplication id: the task) taken by one instance, handed on if it dies.
 */
export const bullmqScheduler = defineProvider({
  capability: 'scheduler',
  id: 'bullmq',
  contractVersion: SCHEDULER_CONTRACT_VERSION,
  async create(context) {
    return createQueuedScheduler({ id: 'bullmq', queue: engineQueue(context, 'bullmq'), logger: context.logger.child({ provider: 'scheduler/bullmq' }) });
  },
});
