import crypto from 'node:crypto';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { JobQueue, QueueJob, QueueWorker } from '../../../kernel/contracts/queue.js';
import type { FireHandler, ScheduledJob, Scheduler } from '../../../kernel/contracts/scheduler.js';
import { createTimerClock } from './timer-clock.js';

export interface QueuedSchedulerOptions {
  /** The provider id (`pg-boss`, `bullmq`). */
  id: string;
  /** The engine: the service's shared queue (QUEUE). */
  queue: JobQueue;
  logger: Logger;
  /** The queue fires travel in; every scheduler sharing fires uses the same. Default `schedule-fires`. */
  queueName?: string;
  /** How long a held fire outlives its process (ms, at least 1000): a crash hands it on this long after. */
  leaseMs?: number;
}

/** What a fire's job carries: the job as planned (its timing may have changed since) and the planned time. */
interface FirePayload {
  job: ScheduledJob;
  plannedMs: number;
}

export const FIRES_QUEUE = 'schedule-fires';
const DEFAULT_LEASE_MS = 15_000;
/** A fire arriving later than this (every process was down, say) is skipped as missed, never replayed. */
export const MISSED_AFTER_MS = 5 * 60_000;
/** Fires held at once per process: holding one costs a promise, and the runs wait in their own queue. */
const HELD_FIRES = 1024;

const hash = (text: string) => crypto.createHash('sha256').update(text).digest('base64url');
/** One fire's job id: the same in every process, since the planned time is. */
export const fireId = (key: string, plannedMs: number) => `fire-${hash(`${key}\u0000${plannedMs}`)}`;
/** The dedup key of a job's fires: while one is queued or held, the job's next fire adds nothing. */
export const overlapKey = (key: string) => `job-${hash(key)}`;

/**
 * A scheduler whose fires go through a shared queue (scheduler contract 1.1, `sharedFires`). Every process plans
 * every job on its own clock (croner's times, exact to the millisecond, identical everywhere) and, at the planned
 * time, enqueues the fire as one job whose id is the job key and planned time: the first process adds it, the
 * others add nothing. The job's dedup key is the job key, so a fire planned while the previous one is still queued
 * or held adds nothing either (the overlap rule, kept by the engine: a pg-boss singleton key, a BullMQ
 * deduplication id). A worker in some process takes the fire and holds it (renewing its lease) until the handler's
 * promise settles; if that process dies, the engine hands the fire to another after the lease.
 */
export function createQueuedScheduler(options: QueuedSchedulerOptions): Scheduler {
  const { queue, logger } = options;
  const queueName = options.queueName ?? FIRES_QUEUE;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const clock = createTimerClock();
  let onFire: FireHandler | null = null;
  let worker: QueueWorker | undefined;
  let starting: Promise<void> | undefined;

  function handOver(job: ScheduledJob, plannedMs: number): void {
    queue.enqueue<FirePayload>(queueName, { job, plannedMs }, { id: fireId(job.key, plannedMs), key: overlapKey(job.key) })
      .then((added) => {
        if (added === null) logger.debug({ key: job.key, plannedMs }, 'fire already handed over, or the previous fire of the job is still held');
      })
      .catch((error: unknown) => {
        logger.error({ err: error, key: job.key, fireTime: new Date(plannedMs).toISOString() },
          'a fire could not be handed to the queue: it runs only if another instance hands it over');
      });
  }

  async function deliver(fire: QueueJob<FirePayload>): Promise<void> {
    const { job, plannedMs } = fire.payload;
    const handler = onFire;
    if (!handler) return;
    const lateMs = Date.now() - plannedMs;
    if (lateMs > MISSED_AFTER_MS) {
      logger.warn({ key: job.key, fireTime: new Date(plannedMs).toISOString(), lateMs }, 'a fire arrived too late: skipped as missed');
      return;
    }
    if (fire.attempt > 1) {
      logger.warn({ key: job.key, fireTime: new Date(plannedMs).toISOString(), attempt: fire.attempt }, 'a fire whose holder stopped is handed on');
    }
    try {
      await handler({ ...job }, plannedMs, { attempt: fire.attempt });
    } catch (error) {
      logger.error({ err: error, key: job.key }, 'scheduled fire handler threw');
    }
  }

  return {
    id: options.id,
    capabilities: { timezones: true, sharedFires: true },
    get running() {
      return clock.running;
    },
    upcoming: (timing, afterMs, count) => clock.upcoming(timing, afterMs, count),
    async upsert(job) {
      clock.upsert(job);
    },
    async remove(key) {
      return clock.remove(key);
    },
    nextRun: (key) => clock.nextRun(key),
    jobs: () => clock.jobs(),

    async start(handler) {
      if (clock.running || starting) throw new Error('the scheduler is already running');
      starting = (async () => {
        worker = await queue.work<FirePayload>(queueName, { concurrency: HELD_FIRES, leaseMs }, deliver);
        onFire = handler;
        clock.start(handOver);
      })();
      try {
        await starting;
      } finally {
        starting = undefined;
      }
    },

    async stop() {
      clock.stop();
      const stopping = worker;
      worker = undefined;
      await stopping?.stop();
      onFire = null;
    },
  };
}
