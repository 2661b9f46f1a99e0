import type { Logger } from '../../kernel/contracts/logger.js';
import type { Scheduler } from '../../kernel/contracts/scheduler.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';

/**
 * How long a fire's claim lasts. A fire later than half of it is dropped as missed (fire.ts), so every instance
 * that may still claim a fire does so while the first claim holds: a fire runs once across instances.
 */
export const CLAIM_TTL_MS = 10 * 60_000;
/** How far apart the clocks of two instances may be when a run's queue time is compared with a planned time. */
const CLOCK_SKEW_MS = 5_000;

/** The claim key of one fire: identical on every instance, because the planned time is. */
export const claimKey = (taskId: string, fireTimeMs: number) => `schedule:${taskId}:${fireTimeMs}`;

/**
 * Whether this instance runs the fire (true) or another one does. With a scheduler that fires in every process
 * (bree), the first instance to claim (task, planned time) in storage runs it: a claimant that dies before its
 * run is queued loses the fire. With shared fires only one instance holds a fire at a time, and it comes here again
 * only when the one holding it died (`attempt` > 1): it runs unless that one already queued its run, which the
 * history tells (a scheduled run of the task queued since the planned time: the engine keeps a task's later fires
 * out while this one is held, so that run is this fire's). Nothing is lost then, and a run is never started twice
 * unless an instance stalls longer than the fire's lease and wakes up.
 */
export function createFireGate(deps: { storage: StorageProvider; scheduler: Scheduler; instanceId: string; logger: Logger }) {
  const { storage, instanceId, logger } = deps;
  const shared = deps.scheduler.capabilities.sharedFires === true;

  return async (taskId: string, fireTimeMs: number, attempt: number): Promise<boolean> => {
    if (!shared) {
      const claimed = await storage.claims.claim(claimKey(taskId, fireTimeMs), instanceId, CLAIM_TTL_MS);
      if (!claimed) logger.debug({ taskId, fireTimeMs }, 'scheduled fire claimed by another instance');
      return claimed;
    }
    if (attempt <= 1) return true; // the first holder: nobody ran it before
    const from = new Date(fireTimeMs - CLOCK_SKEW_MS).toISOString();
    // `from` bounds startedAt, which a run moves on when it starts; the time it was queued is what counts.
    const since = await storage.executions.list({ taskId, from, limit: 20 });
    const queuedAt = (record: (typeof since)[number]) => (typeof record.queuedAt === 'string' ? record.queuedAt : record.startedAt);
    const queued = since.find((record) => record.trigger === 'schedule' && queuedAt(record) >= from);
    if (queued) {
      logger.info({ taskId, fireTime: new Date(fireTimeMs).toISOString(), executionId: queued.executionId },
        'scheduled fire: its run was queued already, by the instance that held it before');
    }
    return queued === undefined;
  };
}
