import { defineProvider } from '../../../kernel/contracts/provider.js';
import { SCHEDULER_CONTRACT_VERSION } from '../../../kernel/contracts/scheduler.js';
import { engineQueue } from '../shared/engine-queue.js';
import { createQueuedScheduler } from '../shared/queued-scheduler.js';

/**
 * Scheduler provider `pg-boss` (the default with QUEUE=pg-boss): croner's times on every instance, each fire one
 * pg-boss job (id: task and planned time; singleton key: the task) taken by one instance, handed on if it dies.
 */
export const pgBossScheduler = defineProvider({
  capability: 'scheduler',
  id: 'pg-boss',
  contractVersion: SCHEDULER_CONTRACT_VERSION,
  async create(context) {
    return createQueuedScheduler({ id: 'pg-boss', queue: engineQueue(context, 'pg-boss'), logger: context.logger.child({ provider: 'scheduler/pg-boss' }) });
  },
});
