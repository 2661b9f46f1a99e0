import { defineProvider } from '../../../kernel/contracts/provider.js';
import { QUEUE_CONTRACT_VERSION } from '../../../kernel/contracts/queue.js';
import { createMemoryQueue } from './memory-queue.js';

export { createMemoryQueue } from './memory-queue.js';

/** Queue provider `memory` (the default): in this process, first in first out; nothing outlives the process. */
export const memoryQueue = defineProvider({
  capability: 'queue',
  id: 'memory',
  contractVersion: QUEUE_CONTRACT_VERSION,
  create: async () => createMemoryQueue(),
});
