import type { JobTiming, ScheduledJob } from '../../../kernel/contracts/scheduler.js';
import { Errors } from '../../../kernel/errors.js';
import { compileTiming, nextFireOf, upcomingFires } from './timing.js';

/** setTimeout's longest delay: a fire further away is reached through wake-ups this far apart. */
const MAX_DELAY_MS = 2 ** 31 - 1;

interface Entry {
  job: ScheduledJob;
  plannedMs: number | null;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Called at each planned time with a copy of the job; it must not throw (the clock does not catch). */
export type DueHandler = (job: ScheduledJob, plannedMs: number) => void;

const copyJob = (job: ScheduledJob): ScheduledJob => ({ ...job });

/**
 * When jobs are due, in this process: one timer per job at croner's next time (timing.ts), armed again for the
 * time after as it goes off. The same times as the bree scheduler, without bree: the engine-backed schedulers only
 * need "now is the planned time" to hand the fire to their engine.
 */
export function createTimerClock() {
  const entries = new Map<string, Entry>();
  let onDue: DueHandler | null = null;

  function wait(entry: Entry): void {
    clearTimeout(entry.timer);
    if (entry.plannedMs === null) return;
    entry.timer = setTimeout(() => due(entry), Math.min(Math.max(0, entry.plannedMs - Date.now()), MAX_DELAY_MS));
  }

  /** Plans the next fire strictly after `afterMs` (never one already past). */
  function arm(entry: Entry, afterMs: number): void {
    entry.plannedMs = nextFireOf(entry.job, Math.max(afterMs, Date.now()));
    wait(entry);
  }

  function due(entry: Entry): void {
    entry.timer = undefined;
    const plannedMs = entry.plannedMs;
    if (entries.get(entry.job.key) !== entry || onDue === null || plannedMs === null) return;
    // A timer may go off a millisecond early, or at a wake-up short of a far fire: wait on.
    if (Date.now() < plannedMs) return wait(entry);
    arm(entry, plannedMs);
    onDue(copyJob(entry.job), plannedMs);
  }

  return {
    get running(): boolean {
      return onDue !== null;
    },

    upcoming(timing: JobTiming, afterMs: number, count = 1): number[] {
      return upcomingFires(compileTiming(timing), afterMs, count);
    },

    upsert(job: ScheduledJob): void {
      if (typeof job.key !== 'string' || job.key === '') throw Errors.INVALID_SCHEDULE({ reason: 'a job needs a non-empty key' });
      upcomingFires(compileTiming(job), Date.now()); // refuses a timing that never fires
      const existing = entries.get(job.key);
      if (existing) clearTimeout(existing.timer);
      const entry: Entry = { job: copyJob(job), plannedMs: null, timer: undefined };
      entries.set(job.key, entry);
      if (onDue) arm(entry, Date.now());
    },

    remove(key: string): boolean {
      const entry = entries.get(key);
      if (!entry) return false;
      clearTimeout(entry.timer);
      entries.delete(key);
      return true;
    },

    nextRun(key: string): number | null {
      const entry = entries.get(key);
      return entry && onDue ? entry.plannedMs : null;
    },

    jobs(): ScheduledJob[] {
      return [...entries.values()].map((entry) => copyJob(entry.job));
    },

    /** Plans every job from now on; `handler` is called at each planned time. */
    start(handler: DueHandler): void {
      onDue = handler;
      const now = Date.now();
      for (const entry of entries.values()) arm(entry, now);
    },

    stop(): void {
      onDue = null;
      for (const entry of entries.values()) {
        clearTimeout(entry.timer);
        entry.timer = undefined;
        entry.plannedMs = null;
      }
    },
  };
}

export type TimerClock = ReturnType<typeof createTimerClock>;
