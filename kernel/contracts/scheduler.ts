export const SCHEDULER_CONTRACT_VERSION = 1;

export interface ScheduledJob {
  /** Usually the task id. */
  key: string;
  /** Five-field cron expression. */
  cron: string;
  timezone?: string;
}

/** The scheduler capability: fires jobs at their cron times; missed fires are not replayed. */
export interface Scheduler {
  readonly id: string;
  /** Adds or replaces the job with `job.key`. */
  upsert(job: ScheduledJob): Promise<void>;
  remove(key: string): Promise<void>;
  /** Epoch milliseconds of the next fire, or null. */
  nextRun(key: string): number | null;
  jobs(): ScheduledJob[];
  /** Starts firing; `onFire` receives the job and the planned fire time (epoch ms). */
  start(onFire: (job: ScheduledJob, fireTimeMs: number) => void): Promise<void>;
  stop(): Promise<void>;
  readonly running: boolean;
}
