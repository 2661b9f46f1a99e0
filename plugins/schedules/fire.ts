import type { Logger } from '../../kernel/contracts/logger.js';
import type { Schedule } from '../../kernel/contracts/records.js';
import type { TaskRuns } from '../runs/decorators.js';
import type { FireDelivery, ScheduledJob, Scheduler } from '../../kernel/contracts/scheduler.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import { CLAIM_TTL_MS, createFireGate } from './fire-once.js';
import { createPreviousRunCheck } from './previous-run.js';
import { resolveTiming, sameTiming } from './resolve.js';
import type { Zones } from './zones.js';
import type { EventBus } from '../../layers/events/event-bus.js';

export { CLAIM_TTL_MS, claimKey } from './fire-once.js';
/** A fire later than this is dropped as missed: half the claim's life, so claims of one fire never overlap. */
export const MAX_LATENESS_MS = CLAIM_TTL_MS / 2;

export interface FireDeps {
  storage: StorageProvider;
  scheduler: Scheduler;
  logger: Logger;
  /** Names this instance as a claim's owner. */
  instanceId: string;
  /** Ids of the instances whose lease holds: a run of the task under one of them is still going. */
  liveInstances: () => Promise<ReadonlySet<string>>;
  taskRuns: TaskRuns;
  shutdownSignal: AbortSignal;
  zones: Zones;
  /** Where a skipped fire is published (`schedule.skipped`); absent: not published. */
  events?: EventBus;
}

type RunFields = Pick<Schedule, 'lastRun' | 'lastRunStatus' | 'lastRunDurationMs'>;

/**
 * One scheduled fire: checks the task still wants it and that it runs here (fire-once.ts: once across
 * instances), runs the task through `taskRuns` (trigger `schedule`) and records the outcome on the task's
 * schedule. Never throws: every failure is logged.
 */
export function createFire(deps: FireDeps) {
  const { storage, scheduler, instanceId } = deps;
  const log = deps.logger;
  const previousRunActive = createPreviousRunCheck({ executions: storage.executions, instanceId, liveInstances: deps.liveInstances });
  const runsHere = createFireGate({ storage, scheduler, instanceId, logger: log });

  const record = async (taskId: string, fields: RunFields) => {
    await storage.tasks.update(taskId, (task) =>
      task.schedule ? { ...task, schedule: { ...task.schedule, ...fields } } : undefined);
  };

  /** False (and the scheduler corrected) when the stored task no longer wants this job. */
  async function stillWanted(job: ScheduledJob): Promise<boolean> {
    const task = await storage.tasks.get(job.key);
    if (!task) {
      log.info({ taskId: job.key }, 'scheduled task was deleted: its schedule stops');
      await scheduler.remove(job.key);
      return false;
    }
    if (!task.schedule?.enabled) {
      await scheduler.remove(job.key);
      return false;
    }
    let timing;
    try {
      // The pinned zone, or the one the job was planned in (a pin not written yet): never this process's own.
      const zone = await deps.zones.of(job.key, task.schedule, 'cron' in job ? job.timezone : undefined);
      timing = resolveTiming(task.schedule, zone).timing;
    } catch {
      await scheduler.remove(job.key);
      return false;
    }
    // Changed behind our back (e.g. PATCH /api/tasks): the stored timing wins from now on.
    if (!sameTiming(timing, job)) {
      await scheduler.upsert({ key: job.key, ...timing });
      return false;
    }
    return true;
  }

  const skipped = (taskId: string, fireTimeMs: number, reason: string) =>
    void deps.events?.publish({ type: 'schedule.skipped', taskId, data: { taskId, fireTime: new Date(fireTimeMs).toISOString(), reason } });

  async function run(job: ScheduledJob, fireTimeMs: number, attempt: number): Promise<void> {
    const taskId = job.key;
    const lateMs = Date.now() - fireTimeMs;
    if (lateMs > MAX_LATENESS_MS) {
      log.warn({ taskId, fireTime: new Date(fireTimeMs).toISOString(), lateMs }, 'scheduled fire skipped: missed by more than 5 minutes');
      skipped(taskId, fireTimeMs, 'missed by more than 5 minutes');
      return;
    }
    if (deps.shutdownSignal.aborted || !(await stillWanted(job))) return;
    if (!(await runsHere(taskId, fireTimeMs, attempt))) return;
    const runs = deps.taskRuns;
    const startedAt = new Date();
    if (await previousRunActive(taskId, runs)) {
      log.warn({ taskId, fireTime: new Date(fireTimeMs).toISOString() }, 'scheduled fire skipped: the previous run of this task is still running');
      skipped(taskId, fireTimeMs, 'the previous run of this task is still running');
      return;
    }
    log.info({ taskId, fireTime: new Date(fireTimeMs).toISOString(), instanceId }, 'scheduled fire: starting its run');
    try {
      const outcome = await runs.run(taskId, { trigger: 'schedule' });
      await record(taskId, { lastRun: startedAt.toISOString(), lastRunStatus: outcome.status, lastRunDurationMs: outcome.durationMs });
    } catch (error) {
      if (Errors.TASK_NOT_FOUND.is(error)) {
        await scheduler.remove(taskId);
        return;
      }
      log.error({ err: error, taskId }, 'scheduled run failed to start');
      await record(taskId, { lastRun: startedAt.toISOString(), lastRunStatus: 'error', lastRunDurationMs: Date.now() - startedAt.getTime() });
    }
  }

  /** `delivery`: from a shared-fires scheduler (a fire handed on has `attempt` > 1). */
  return async (job: ScheduledJob, fireTimeMs: number, delivery?: FireDelivery): Promise<void> => {
    try {
      await run(job, fireTimeMs, delivery?.attempt ?? 1);
    } catch (error) {
      log.error({ err: error, taskId: job.key }, 'scheduled fire failed');
    }
  };
}
