import { defineProvider } from '../../../kernel/contracts/provider.js';
import { SCHEDULER_CONTRACT_VERSION } from '../../../kernel/contracts/scheduler.js';
import { createBreeScheduler } from './bree-scheduler.js';

export { createBreeScheduler } from './bree-scheduler.js';

/** Scheduler provider `bree`: bree's timers and job lifecycle, croner's fire times, no worker threads. */
export const breeScheduler = defineProvider({
  capability: 'scheduler',
  id: 'bree',
  contractVersion: SCHEDULER_CONTRACT_VERSION,
  async create(context) {
    return createBreeScheduler({ logger: context.logger.child({ provider: 'scheduler/bree' }) });
  },
});
