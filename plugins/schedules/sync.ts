import type { Logger } from '../../kernel/contracts/logger.js';
import type { JobTiming, Scheduler } from '../../kernel/contracts/scheduler.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { resolveTiming, sameTiming } from './resolve.js';
import { reasonOf } from './service.js';

/** Runs async sections one after another (schedule writes and the sync must not interleave). */
export function createSerial() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(section: () => Promise<T>): Promise<T> => {
    const result = tail.then(section);
    tail = result.catch(() => undefined);
    return result;
  };
}

/**
 * Makes the scheduler hold exactly the enabled, valid schedules in storage. Runs at start-up and then
 * periodically, which also picks up schedules written around this plugin: through `POST /api/tasks`, or by
 * another instance sharing the database. An invalid stored schedule is logged once (until it changes).
 * Resolves to how many jobs are scheduled.
 */
export function createSync(deps: { storage: StorageProvider; scheduler: Scheduler; logger: Logger }) {
  const { storage, scheduler, logger } = deps;
  const reported = new Map<string, string>();

  return async (): Promise<number> => {
    const now = Date.now();
    const wanted = new Map<string, JobTiming>();
    for (const task of await storage.tasks.list()) {
      if (!task.schedule?.enabled) continue;
      try {
        const { timing } = resolveTiming(task.schedule);
        scheduler.upcoming(timing, now);
        wanted.set(task.id, timing);
        reported.delete(task.id);
      } catch (error) {
        const reason = reasonOf(error);
        if (reported.get(task.id) !== reason) logger.warn({ taskId: task.id, reason }, 'stored schedule is invalid: not scheduled');
        reported.set(task.id, reason);
      }
    }
    const current = new Map(scheduler.jobs().map((job) => [job.key, job]));
    for (const [key, timing] of wanted) {
      const job = current.get(key);
      if (!job || !sameTiming(job, timing)) await scheduler.upsert({ key, ...timing });
    }
    for (const key of current.keys()) if (!wanted.has(key)) await scheduler.remove(key);
    return wanted.size;
  };
}
