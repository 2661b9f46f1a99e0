import { randomUUID } from 'node:crypto';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { TaskRuns } from '../runs/decorators.js';
import type { Scheduler } from '../../kernel/contracts/scheduler.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import type { Instance } from '../instances/decorators.js';
import type { EventBus } from '../../layers/events/event-bus.js';
import { createFire } from './fire.js';
import { createScheduleService } from './service.js';
import { createSerial, createSync } from './sync.js';
import { createZones } from './zones.js';

/** How often stored schedules are re-read (writes through the tasks API, other instances). */
export const SYNC_INTERVAL_MS = 30_000;

export interface SchedulesRuntimeOptions {
  storage: StorageProvider;
  scheduler: Scheduler;
  logger: Logger;
  /** The runs plugin's `app.taskRuns`. */
  taskRuns: TaskRuns;
  shutdownSignal: AbortSignal;
  /** This instance (`app.instance`): names claims and tells which instances are alive. */
  instance?: Pick<Instance, 'id' | 'live'>;
  /** Without `instance`: the claim owner (default: a random id per process); only this instance counts as alive. */
  instanceId?: string;
  syncIntervalMs?: number;
  /** Where skipped fires are published (`app.events`). */
  events?: EventBus;
}

/** Everything the schedules plugin runs, without Fastify: the service, fires, the periodic sync. */
export function createSchedulesRuntime(options: SchedulesRuntimeOptions) {
  const { scheduler, logger } = options;
  const { instance } = options;
  const instanceId = instance?.id ?? options.instanceId ?? randomUUID();
  const liveInstances = instance ? () => instance.live() : async () => new Set([instanceId]);
  const serial = createSerial();
  const zones = createZones(options);
  const service = createScheduleService({ ...options, serial, zones });
  const fire = createFire({ ...options, instanceId, liveInstances, zones });
  const sync = createSync({ ...options, zones });
  const inflight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  // Settles as this instance stops: a shared fire is let go then (its run goes on, or ends with the service).
  let letGo: () => void = () => {};
  const stopping = new Promise<void>((resolve) => { letGo = resolve; });

  const syncNow = () => serial(sync);

  return {
    instanceId,
    service,
    /** One fire, as the scheduler delivers it; resolves when its run was recorded (tests call it directly). */
    fire,
    syncNow,

    /** Loads every enabled schedule and starts firing. Resolves to how many are scheduled. */
    async start(): Promise<number> {
      const startedAt = performance.now();
      const count = await syncNow();
      await scheduler.start((job, fireTimeMs, delivery) => {
        // Begun on the next immediate: the scheduler delivers every fire due now before storage work starts.
        const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => fire(job, fireTimeMs, delivery));
        inflight.add(done);
        void done.finally(() => inflight.delete(done));
        // A shared-fires scheduler holds the fire until its run ended: the engine skips the task's next fires
        // meanwhile (the overlap rule), and hands the fire on if this process dies first. Never rejects.
        return Promise.race([done, stopping]);
      });
      timer = setInterval(() => {
        syncNow().catch((error: unknown) => logger.error({ err: error }, 'schedule sync failed'));
      }, options.syncIntervalMs ?? SYNC_INTERVAL_MS);
      timer.unref();
      logger.info({ scheduled: count, ms: Math.round(performance.now() - startedAt), instanceId }, 'scheduler ready');
      return count;
    },

    /** Stops firing: no new fire starts (jobs stay stored). */
    async stop(): Promise<void> {
      clearInterval(timer);
      letGo();
      await scheduler.stop();
    },

    /** Waits (at most `graceMs`) for fires in flight to record their runs, e.g. before storage closes. */
    async drain(graceMs = 15_000): Promise<void> {
      let timeout: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => { timeout = setTimeout(resolve, graceMs); });
      await Promise.race([Promise.allSettled([...inflight]), grace]);
      clearTimeout(timeout);
    },
  };
}

export type SchedulesRuntime = ReturnType<typeof createSchedulesRuntime>;
