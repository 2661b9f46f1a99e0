import { Type, type Static } from 'typebox';
import type { KernelConfig } from '../../kernel/config.js';
import type { BrowserPool } from '../../kernel/contracts/browser-pool.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { JobHandler } from '../../kernel/contracts/queue.js';
import { Errors } from '../../kernel/errors.js';
import { CGROUP_ROOT, readHostResources } from './host-limits/host-resources.js';
import { processTreeRss } from './host-limits/process-tree-rss.js';
import { DEFAULT_RUN_MEMORY_MB, computeRunLimit, defaultReserveMb } from './host-limits/run-limits.js';
import { createSlotGate } from './slot-gate.js';

/** The variables admission reads (the runs plugin's configSchema). */
export const AdmissionSettings = Type.Object({
  /** Runs waiting for a slot beyond which a new run is refused (429 QUEUE_FULL). */
  MAX_QUEUED_RUNS: Type.Integer({ minimum: 1, maximum: 100_000, default: 100 }),
  /** Memory a run is taken to need until runs were measured (MB). */
  RUN_MEMORY_ESTIMATE_MB: Type.Integer({ minimum: 32, maximum: 65_536, default: DEFAULT_RUN_MEMORY_MB }),
  /** Memory kept free of runs (MB); default a quarter of the memory, 512 MB to 4 GB. */
  RUN_MEMORY_RESERVE_MB: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_048_576 })),
  /** Where the cgroup files are read (default /sys/fs/cgroup): tests point it at a folder of fake ones. */
  TASKLOOM_CGROUP_ROOT: Type.Optional(Type.String({ minLength: 1 })),
});
export type AdmissionSettings = Static<typeof AdmissionSettings>;

const MB = 1024 * 1024;
/** Until a run ended, one is taken to last this long (for Retry-After). */
const DEFAULT_RUN_MS = 30_000;
const SAMPLE_EVERY_MS = 2_000;
/** Weight of a new sample in the moving averages. */
const WEIGHT = 0.3;
const MAX_RETRY_AFTER_S = 600;

export interface AdmissionDeps {
  config: KernelConfig;
  settings: AdmissionSettings;
  browser: Pick<BrowserPool, 'browserPid' | 'openContexts'>;
  /** A shared queue (pg-boss, BullMQ): the bound counts the stored queued executions of every instance. */
  shared: boolean;
  /** Runs of this process: running, and queued (waiting for a slot). */
  counts: () => { running: number; queued: number };
  /** Queued executions in storage (every instance's), for a shared queue. */
  storedQueued: () => Promise<number>;
  /** The abort signal of a run this process queued, so that a run cancelled while it waits for a slot goes on at once. */
  signalOf: (executionId: string) => AbortSignal | undefined;
  logger: Logger;
}

/**
 * Admission: how many runs this instance runs at once (MAX_CONCURRENT_RUNS, or computed from the host and the
 * measured memory of a run), and how many may wait (MAX_QUEUED_RUNS, then 429 QUEUE_FULL with Retry-After).
 */
export function createAdmission(deps: AdmissionDeps) {
  const { config, settings, logger } = deps;
  const configured = config.variables.MAX_CONCURRENT_RUNS === undefined ? undefined : config.maxConcurrentRuns;
  const cgroupRoot = settings.TASKLOOM_CGROUP_ROOT ?? CGROUP_ROOT;
  let perRunMb: number = settings.RUN_MEMORY_ESTIMATE_MB;
  let memorySamples = 0;
  let runMs = DEFAULT_RUN_MS;
  let runsObserved = 0;
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;

  const computed = () => {
    const resources = readHostResources(cgroupRoot);
    const reserveMb = settings.RUN_MEMORY_RESERVE_MB ?? defaultReserveMb(resources.memoryBytes.value);
    return { resources, reserveMb, ...computeRunLimit({ resources, perRunMb, reserveMb }) };
  };
  /** Runs at once now: the configured number, or the computed one (which moves as runs are measured). */
  const limit = () => configured ?? computed().limit;
  // At start: the worker takes at most this many jobs. In-process, computed: the CPU bound, and the gate below
  // holds runs to the memory bound as it is measured. A shared queue's worker takes what the host allows at start.
  const start = computed();
  const workerConcurrency = configured ?? (deps.shared ? start.limit : start.byCpu);
  const gate = createSlotGate(() => Math.min(workerConcurrency, limit()));

  function sample(): void {
    const pid = deps.browser.browserPid();
    const contexts = deps.browser.openContexts();
    if (pid === undefined || contexts < 1) return;
    const rss = processTreeRss(pid);
    if (rss === undefined) return;
    // The whole tree over the contexts open: the browser's base is shared out among them (errs on the high side).
    const perContext = Math.max(32, rss / MB / contexts);
    perRunMb = memorySamples === 0 ? perContext : perRunMb * (1 - WEIGHT) + perContext * WEIGHT;
    memorySamples++;
    gate.refresh();
  }

  const retryAfterSeconds = () => Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil(runMs / limit() / 1000)));
  const queued = async () => (deps.shared ? deps.storedQueued() : deps.counts().queued);

  return {
    workerConcurrency,
    retryAfterSeconds,

    /** Starts measuring the browser while runs run. */
    start(): void {
      timer = setInterval(() => {
        if (deps.counts().running > 0) sample();
      }, SAMPLE_EVERY_MS).unref();
      logger.info({ maxConcurrentRuns: limit(), configured: configured !== undefined, explanation: start.explanation,
        maxQueuedRuns: settings.MAX_QUEUED_RUNS }, 'run admission');
    },
    stop(): void {
      clearInterval(timer);
    },

    /**
     * Takes a place in the queue, or throws 429 QUEUE_FULL when MAX_QUEUED_RUNS runs wait already. The caller
     * calls the answer once the run is in the queue (then it counts there) or was not queued.
     */
    async admit(): Promise<() => void> {
      inFlight++; // before any await: a burst of requests sees each other
      const waiting = await queued().catch(() => 0) + inFlight - 1;
      if (waiting >= settings.MAX_QUEUED_RUNS) {
        inFlight--;
        const seconds = retryAfterSeconds();
        throw Object.assign(Errors.QUEUE_FULL({ queued: waiting, limit: settings.MAX_QUEUED_RUNS, seconds }), { retryAfterSeconds: seconds });
      }
      let released = false;
      return () => {
        if (!released) inFlight--;
        released = true;
      };
    },

    /** A run ended after `durationMs`: the moving run time behind Retry-After. */
    observeRun(durationMs: number): void {
      if (!(durationMs > 0)) return;
      runMs = runsObserved === 0 ? durationMs : runMs * (1 - WEIGHT) + durationMs * WEIGHT;
      runsObserved++;
    },

    /** The queue's handler, held to the computed limit in-process (a configured one or a shared queue: as is). */
    gated<P extends { executionId: string }>(handler: JobHandler<P>): JobHandler<P> {
      if (configured !== undefined || deps.shared) return handler;
      return async (job) => {
        const release = await gate.acquire(deps.signalOf(job.payload.executionId));
        try {
          await handler(job);
        } finally {
          release();
        }
      };
    },

    /** What GET /api/capabilities reports. */
    async report() {
      const now = computed();
      const counts = deps.counts();
      const waiting = await queued().catch(() => counts.queued);
      return {
        maxConcurrentRuns: configured ?? Math.min(workerConcurrency, now.limit),
        source: configured === undefined ? 'computed' as const : 'MAX_CONCURRENT_RUNS' as const,
        configured: configured ?? null,
        computed: { limit: now.limit, byCpu: now.byCpu, byMemory: now.byMemory, explanation: now.explanation },
        host: {
          memoryMb: Math.round(now.resources.memoryBytes.value / MB), memorySource: now.resources.memoryBytes.source,
          cpus: now.resources.cpus.value, cpuSource: now.resources.cpus.source, reserveMb: now.reserveMb,
        },
        memoryPerRunMb: Math.round(perRunMb),
        memoryEstimate: memorySamples > 0 ? 'measured' as const : config.variables.RUN_MEMORY_ESTIMATE_MB ? 'RUN_MEMORY_ESTIMATE_MB' as const : 'default' as const,
        memorySamples,
        averageRunMs: Math.round(runMs),
        runsObserved,
        queue: {
          provider: config.queue, shared: deps.shared,
          counts: deps.shared ? 'queued executions in storage (every instance)' as const : 'runs waiting in this process' as const,
          queued: waiting, running: counts.running, maxQueuedRuns: settings.MAX_QUEUED_RUNS,
          fill: Math.min(1, waiting / settings.MAX_QUEUED_RUNS), retryAfterSeconds: retryAfterSeconds(),
        },
      };
    },
  };
}

export type Admission = ReturnType<typeof createAdmission>;
