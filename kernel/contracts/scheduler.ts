/** The scheduler contract's version (`major.minor`, see provider.ts), and the oldest a scheduler may be built for. */
export const SCHEDULER_CONTRACT_VERSION = '1.1';
export const SCHEDULER_CONTRACT_ACCEPTS = '1.0';

/**
 * When a job fires: a five-field cron expression (minute hour day-of-month month day-of-week, `0` or `7` is
 * Sunday; day-of-month and day-of-week together match either, as in Vixie cron), read in `timezone` (an IANA
 * name such as `Europe/Berlin`) or, without one, in the server's time zone.
 *
 * Daylight-saving rules: a fixed time of day (single minute and hour values, e.g. `30 2 * * *`) that falls into
 * a spring-forward gap fires at the first valid time after the gap (03:00); one that occurs twice in an autumn
 * fall-back fires once, at its first occurrence. Step and wildcard times (`*\/15 * * * *`) fire on real wall-clock
 * minutes only: skipped in a gap, fired on both occurrences of a repeated hour. A day-of-month a month lacks
 * (31 in April) is skipped for that month, never moved to its last day.
 */
export interface CronTiming { cron: string; timezone?: string }

/**
 * An elapsed-time series: every `intervalMinutes` (1 to 1440) minutes, at the instants that are whole multiples
 * of the period since 1970-01-01T00:00Z. Being anchored to the epoch rather than to "now", the series is the same
 * after a restart and on every instance. It ignores time zones and daylight saving (a period, not a wall clock).
 */
export interface IntervalTiming {
  intervalMinutes: number;
}

export type JobTiming = CronTiming | IntervalTiming;

/** A job: a key (callers use the task id) and its timing. */
export type ScheduledJob = JobTiming & {
  /** Any non-empty string; unique within one scheduler. */
  key: string;
};

/** (1.1) How a fire reached this process, from a scheduler with `sharedFires`. */
export interface FireDelivery {
  /** 1 the first time; more when the fire was handed on because the process holding it died. */
  attempt: number;
}

/**
 * Called once per fire with a copy of the job and the planned fire time (epoch ms, whole minutes). It may return a
 * promise: a scheduler with `sharedFires` holds the fire until it settles, and passes `delivery` (1.1); others
 * ignore the promise.
 */
export type FireHandler = (job: ScheduledJob, fireTimeMs: number, delivery?: FireDelivery) => void | Promise<void>;

/** Optional features of a scheduler. */
export interface SchedulerCapabilities {
  /** Cron timings may carry `timezone`. When false, such a timing is refused with INVALID_SCHEDULE. */
  timezones: boolean;
  /**
   * (1.1) Fires are shared through an engine by every scheduler on it (one per instance of the service): each job
   * and planned time reaches `onFire` in one process only, even though every scheduler plans it. That process
   * holds the fire until the promise `onFire` returned settles; when it dies first, the fire is handed again to
   * another process's `onFire` (after a lease of tens of seconds). While one fire of a job is held, the job's later
   * fires are skipped (the overlap rule), in every process. Absent or false: every scheduler fires its own jobs.
   */
  sharedFires?: boolean;
}

/**
 * The scheduler capability: fires jobs at their times, in this process. Jobs live in memory only: the caller
 * (the schedules plugin) upserts them again after a restart. Fires missed while stopped (or while the process was
 * down) are skipped, never replayed. Every instance of the service plans its own jobs; callers that share storage
 * make a fire run once by claiming it (`ClaimStore.claim`) under the planned fire time, which is identical on
 * every instance (a timing with a `timezone` is: callers pin one rather than rely on each process's zone). A
 * scheduler with `capabilities.sharedFires` also delivers each fire to one process only, and again after a crash.
 *
 * Every method that takes a timing throws `Errors.INVALID_SCHEDULE({ reason })` (kernel/errors.ts) when it is not
 * usable: a cron that is not five valid fields or never fires again, an unknown time zone, an interval outside
 * 1 to 1440 minutes. `reason` is one sentence naming the problem.
 */
export interface Scheduler {
  /** The provider id, e.g. `bree`. */
  readonly id: string;
  readonly capabilities: SchedulerCapabilities;
  /** True between `start` and `stop`. */
  readonly running: boolean;

  /**
   * The next `count` (default 1, at most 100) fire times of `timing` strictly after `afterMs` (epoch ms),
   * ascending. Pure: adds nothing. These are exactly the times `upsert` would fire the timing at. A timing with
   * no fire after `afterMs` (a cron for 30 February) is refused with INVALID_SCHEDULE.
   */
  upcoming(timing: JobTiming, afterMs: number, count?: number): number[];

  /** Adds the job, or replaces the job with the same key (its pending fire is re-planned). Throws INVALID_SCHEDULE. */
  upsert(job: ScheduledJob): Promise<void>;

  /** Removes the job; resolves to false when no job had that key. A fire already delivered is not recalled. */
  remove(key: string): Promise<boolean>;

  /**
   * Epoch ms at which the job will fire next: the planned time `onFire` will receive. Null while stopped and for
   * an unknown key. Never earlier than the moment it is read, except during the fire itself.
   */
  nextRun(key: string): number | null;

  /** Copies of every job, in no particular order. */
  jobs(): ScheduledJob[];

  /**
   * Plans every job from now on (nothing missed before is replayed) and calls `onFire` at each fire time, never
   * earlier (by `Date.now()`), at most once per job and planned time. `onFire` must return quickly (long work runs
   * in the promise it may return, see `sharedFires`); an exception it throws, or a rejection, is logged and
   * ignored. Throws when already running.
   */
  start(onFire: FireHandler): Promise<void>;

  /**
   * Stops firing (jobs are kept; `start` plans them again). With `sharedFires`, also stops taking fires and
   * resolves once the fires this process holds have settled: the caller settles them first. Idempotent.
   */
  stop(): Promise<void>;
}
