import type { Schedule, TaskRecord } from '../../kernel/contracts/records.js';
import type { Scheduler } from '../../kernel/contracts/scheduler.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import { describeTiming } from './describe.js';
import { resolveTiming, type ResolvedTiming, type ScheduleTimingFields } from './resolve.js';
import type { ScheduleInput } from './schemas.js';
import { createZones, type Zones } from './zones.js';

const TIMING_KEYS = ['frequency', 'intervalMinutes', 'hour', 'minute', 'daysOfWeek', 'dayOfMonth', 'cron', 'timezone'] as const;

/** Runs a section exclusively (see sync.ts `createSerial`). */
export type Serial = <T>(section: () => Promise<T>) => Promise<T>;

/** A schedule that passed every check, with what the answers show about it. */
export interface CheckedSchedule extends ResolvedTiming {
  description: string;
}

/**
 * Resolves (in `zone`, for a schedule without `timezone`) and asks the scheduler (the authority on cron syntax)
 * for one fire; throws INVALID_SCHEDULE.
 */
export function checkSchedule(scheduler: Scheduler, schedule: ScheduleTimingFields, nowMs = Date.now(), zone?: string): CheckedSchedule {
  const resolved = resolveTiming(schedule, zone);
  scheduler.upcoming(resolved.timing, nowMs);
  return { ...resolved, description: describeTiming(resolved, schedule) };
}

/** The reason a schedule is refused, or rethrows what is not a schedule problem. */
export function reasonOf(error: unknown): string {
  if (Errors.INVALID_SCHEDULE.is(error)) return error.message;
  throw error;
}

/** The stored form: the timing fields as sent (blank cron dropped), `enabled`, and the run fields kept. */
function toStored(body: ScheduleInput, previous: Schedule | undefined): Schedule {
  const stored: Schedule = { enabled: body.enabled ?? true };
  for (const key of TIMING_KEYS) {
    if (body[key] !== undefined) (stored as unknown as Record<string, unknown>)[key] = body[key];
  }
  if (!stored.cron?.trim()) delete stored.cron;
  for (const key of ['lastRun', 'lastRunStatus', 'lastRunDurationMs'] as const) {
    if (previous?.[key] !== undefined) (stored as unknown as Record<string, unknown>)[key] = previous[key];
  }
  return stored;
}

/** Schedule logic without HTTP. The stored schedule is the truth; the scheduler holds the enabled, valid ones. */
export function createScheduleService(deps: { storage: StorageProvider; scheduler: Scheduler; serial?: Serial; zones?: Zones }) {
  const { storage, scheduler } = deps;
  const serial: Serial = deps.serial ?? ((section) => section());
  const zones = deps.zones ?? createZones(deps);

  const taskOf = async (taskId: string): Promise<TaskRecord> => {
    const task = await storage.tasks.get(taskId);
    if (!task) throw Errors.TASK_NOT_FOUND({ id: taskId });
    return task;
  };
  /** The live next fire: null when disabled, invalid or not armed. */
  const nextRunOf = (taskId: string, schedule: Schedule) => (schedule.enabled ? scheduler.nextRun(taskId) : null);
  const withNextRun = (taskId: string, schedule: Schedule) => ({ ...schedule, nextRun: nextRunOf(taskId, schedule) });

  return {
    async list() {
      const tasks = (await storage.tasks.list()).filter((task) => task.schedule);
      return tasks.map((task) => ({
        taskId: task.id, taskName: task.name, mode: task.mode, schedule: withNextRun(task.id, task.schedule!),
      }));
    },

    /** `invalid` is the body validation error, checked after the task exists (404 before 400). */
    set: (taskId: string, body: ScheduleInput, invalid?: string) => serial(async () => {
      const task = await taskOf(taskId);
      if (invalid) throw Errors.INVALID_SCHEDULE({ reason: invalid });
      const schedule = toStored(body, task.schedule);
      const checked = checkSchedule(scheduler, schedule);
      // The run fields are re-read inside the update: a run may have finished since `taskOf`.
      const saved = await storage.tasks.update(taskId, (current) => ({ ...current, schedule: toStored(body, current.schedule) }));
      if (!saved) {
        await scheduler.remove(taskId);
        throw Errors.TASK_NOT_FOUND({ id: taskId });
      }
      // Saved without a zone: the one in effect here now is pinned for it (kept if pinned before for this timing).
      const zone = await zones.pin(taskId, saved.schedule!);
      if (schedule.enabled) await scheduler.upsert({ key: taskId, ...resolveTiming(schedule, zone).timing });
      else await scheduler.remove(taskId);
      const nextRun = nextRunOf(taskId, saved.schedule!);
      return { schedule: { ...saved.schedule!, nextRun }, description: checked.description, nextRun };
    }),

    /** Keeps the schedule with `enabled: false`; a task without one has nothing to disable. */
    disable: (taskId: string) => serial(async () => {
      const saved = await storage.tasks.update(taskId, (current) =>
        current.schedule ? { ...current, schedule: { ...current.schedule, enabled: false } } : undefined);
      await scheduler.remove(taskId);
      if (!saved) await taskOf(taskId);
    }),

    async status(taskId: string) {
      const { schedule } = await taskOf(taskId);
      if (!schedule) return { schedule: null, cron: null, description: 'No schedule', isValid: false, nextRun: null };
      try {
        const checked = checkSchedule(scheduler, schedule);
        const nextRun = nextRunOf(taskId, schedule);
        return { schedule: { ...schedule, nextRun }, cron: checked.cron, description: checked.description, isValid: true, nextRun };
      } catch (error) {
        const reason = reasonOf(error);
        return { schedule: { ...schedule, nextRun: null }, cron: null, description: `Invalid schedule: ${reason}`, isValid: false, nextRun: null, error: reason };
      }
    },

    /** Validates without saving; `nextRun` is when it would fire if saved now. */
    async describe(taskId: string, body: ScheduleInput, invalid?: string) {
      await taskOf(taskId);
      try {
        if (invalid) throw Errors.INVALID_SCHEDULE({ reason: invalid });
        const schedule = toStored(body, undefined);
        const checked = checkSchedule(scheduler, schedule, Date.now(), await zones.ifSavedNow(taskId, schedule));
        const nextRun = schedule.enabled ? scheduler.upcoming(checked.timing, Date.now())[0]! : null;
        return { valid: true, description: checked.description, cron: checked.cron, nextRun };
      } catch (error) {
        const reason = reasonOf(error);
        return { valid: false, description: `Invalid schedule: ${reason}`, cron: null, nextRun: null, error: reason };
      }
    },

    statusAll() {
      const tasks = scheduler.jobs().map((job) => {
        const nextRun = scheduler.nextRun(job.key);
        return { taskId: job.key, cron: 'cron' in job ? job.cron : null, nextRunMs: nextRun };
      });
      tasks.sort((a, b) => (a.nextRunMs ?? Infinity) - (b.nextRunMs ?? Infinity));
      return {
        running: scheduler.running,
        scheduledCount: tasks.length,
        tasks: tasks.map((t) => ({ taskId: t.taskId, cron: t.cron, nextRun: t.nextRunMs === null ? null : new Date(t.nextRunMs).toISOString() })),
      };
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
