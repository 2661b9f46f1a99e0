import type { ProviderContext } from '../../../kernel/contracts/provider.js';
import type { JobQueue } from '../../../kernel/contracts/queue.js';

/**
 * The service's queue, which must be the engine `id` names: an engine-backed scheduler rides on the queue the runs
 * use (its connections, its workers), so SCHEDULER=pg-boss goes with QUEUE=pg-boss. Throws saying what to set.
 */
export function engineQueue(context: Pick<ProviderContext, 'queue'>, id: string): JobQueue {
  const { queue } = context;
  if (!queue) throw new Error(`the ${id} scheduler hands each fire to the service's queue, and none was given`);
  if (queue.id !== id) {
    throw new Error(`SCHEDULER=${id} hands each fire to the ${id} queue, but QUEUE=${queue.id}: set QUEUE=${id}, or leave SCHEDULER unset to follow QUEUE`);
  }
  return queue;
}
