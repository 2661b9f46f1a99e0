import type { Logger } from '../../kernel/contracts/logger.js';
import type { JobTiming, Scheduler } from '../../kernel/contracts/scheduler.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { resolveTiming, sameTiming } from './resolve.js';
import { reasonOf } from './service.js';
import type { Zones } from './zones.js';

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
 * another instance sharing the database. Each is read in its own `timezone` or the zone pinned for it. An invalid
 * stored schedule is logged once (until it changes).
 * Resolves to how many jobs are scheduled.
 */
export function createSync(deps: { storage: StorageProvider; scheduler: Scheduler; logger: Logger; zones: Zones }) {
  const { storage, scheduler, logger, zones } = deps;
  const reported = new Map<string, string>();

  return async (): Promise<number> => {
    const now = Date.now();
    const wanted = new Map<string, JobTiming>();
    const tasks = await storage.tasks.list();
    const enabled = tasks.filter((task) => task.schedule?.enabled).map((task) => ({ taskId: task.id, schedule: task.schedule! }));
    // Schedules stored without a pin (saved by an older version, or written directly) get one now, once for all.
    const zoneOf = await zones.pinAll(enabled);
    await zones.dropStale(new Set(tasks.map((task) => task.id)));
    for (const { taskId, schedule } of enabled) {
      try {
        const { timing } = resolveTiming(schedule, zoneOf(taskId, schedule));
        scheduler.upcoming(timing, now);
        wanted.set(taskId, timing);
        reported.delete(taskId);
      } catch (error) {
        const reason = reasonOf(error);
        if (reported.get(taskId) !== reason) logger.warn({ taskId, reason }, 'stored schedule is invalid: not scheduled');
        reported.set(taskId, reason);
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
