import type Bree from 'bree';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { FireHandler, JobTiming, ScheduledJob, Scheduler } from '../../../kernel/contracts/scheduler.js';
import { Errors } from '../../../kernel/errors.js';
import { FIRE_MESSAGE, SignalWorker } from './signal-worker.js';
import { compileTiming, nextFireOf, upcomingFires } from '../shared/timing.js';

/** One job as this scheduler holds it. */
interface Entry {
  /** Only the timing is kept, not its compiled pattern (see ../shared/timing.ts, `recentCrons`). */
  job: ScheduledJob;
  /** The bree job currently armed for this key (a fresh name per fire: see `arm`), or null. */
  armedName: string | null;
  plannedMs: number | null;
  /** Bree calls for this key run one after another, so a remove never overtakes the add it undoes. */
  chain: Promise<void>;
}

/**
 * Bree needs a job `path`; its workers come from `createWorker`, which returns a SignalWorker, so this function
 * is never evaluated. A function (rather than a file) also spares bree a file-system check on every add.
 */
function neverRun(): void {}

const copyJob = (job: ScheduledJob): ScheduledJob => ({ ...job });

/** A bree instance whose workers only signal a fire (`fire` receives the job's name). */
function createBree(BreeClass: typeof Bree, log: Logger, fire: (name: string) => void): Bree {
  const bree = new BreeClass({
    root: false,
    doRootCheck: false,
    timeout: false,
    logger: {
      info: (message: unknown) => log.debug({ bree: String(message) }, 'bree'),
      warn: (message: unknown) => log.debug({ bree: String(message) }, 'bree'),
      error: (message: unknown) => log.error({ bree: String(message) }, 'bree reported an error'),
    },
    workerMessageHandler: ({ name, message }) => {
      if (message === FIRE_MESSAGE) fire(name);
    },
    errorHandler: (error, data) => log.error({ err: error, job: data.name }, 'bree job failed'),
  });
  // bree's documented extension point (as @breejs/ts-worker uses it), on this instance only.
  bree.createWorker = () => new SignalWorker().asWorker();
  // A date already past when bree starts the job (planned within the milliseconds `add` took): fire it now.
  bree.on('job past', (name: string) => fire(name));
  return bree;
}

/**
 * The bree scheduler. Bree owns the timers and the worker lifecycle; croner decides the times: each key is a
 * one-shot bree `date` job at croner's next fire time, re-armed after it fires. Bree's own cron engine (later.js)
 * is not used because it disagrees with croner (DST days, day-of-month with day-of-week, `7` for Sunday), and
 * `nextRun` must be exactly when the job fires.
 */
export function createBreeScheduler(options: { logger: Logger }): Scheduler {
  const log = options.logger;
  const entries = new Map<string, Entry>();
  const keyOfName = new Map<string, string>();
  let onFire: FireHandler | null = null;
  let running = false;
  let armed = 0;

  // bree (with its job validator, some 40 files) loads when the first job is armed, not with the service.
  let loadingBree: Promise<Bree> | undefined;
  const loadBree = () => loadingBree ??= import('bree').then(({ default: BreeClass }) => createBree(BreeClass, log, fire));

  const enqueue = (entry: Entry, step: () => Promise<void>) => {
    entry.chain = entry.chain.then(step).catch((error: unknown) => {
      log.error({ err: error, key: entry.job.key }, 'scheduler could not (re)plan a job');
    });
  };

  const dropFromBree = async (name: string) => {
    keyOfName.delete(name);
    if (!loadingBree) return; // nothing was ever added
    const bree = await loadingBree;
    if (bree.config.jobs.some((j) => j.name === name)) await bree.remove(name);
  };

  /** Plans the next fire strictly after `afterMs` as a fresh bree job; a stale fire of the old name is ignored. */
  function arm(entry: Entry, afterMs: number): void {
    const previous = entry.armedName;
    const plannedMs = nextFireOf(entry.job, Math.max(afterMs, Date.now()));
    const name = plannedMs === null ? null : `${++armed}:${entry.job.key}`;
    entry.armedName = name;
    entry.plannedMs = plannedMs;
    if (name) keyOfName.set(name, entry.job.key);
    enqueue(entry, async () => {
      if (previous) await dropFromBree(previous);
      if (!name || entry.armedName !== name || !running) return;
      const bree = await loadBree();
      await bree.add({ name, path: neverRun, date: new Date(plannedMs!) });
      await bree.start(name);
    });
  }

  function disarm(entry: Entry): void {
    const previous = entry.armedName;
    entry.armedName = null;
    entry.plannedMs = null;
    if (previous) enqueue(entry, () => dropFromBree(previous));
  }

  /**
   * Entries that fired and wait to be re-armed. Re-arming (croner's next time, bree's remove/add/start) waits for
   * an immediate, so 1,000 jobs due in the same millisecond are all delivered before any of that work.
   */
  const fired = new Map<Entry, number>();
  const rearm = (entry: Entry) => {
    const plannedMs = fired.get(entry);
    if (plannedMs === undefined) return;
    fired.delete(entry);
    if (entries.get(entry.job.key) === entry && running) arm(entry, plannedMs);
  };
  const rearmFired = () => { for (const entry of [...fired.keys()]) rearm(entry); };

  function fire(name: string): void {
    const key = keyOfName.get(name);
    const entry = key === undefined ? undefined : entries.get(key);
    if (!entry || entry.armedName !== name || entry.plannedMs === null || !running || fired.has(entry)) return;
    const plannedMs = entry.plannedMs;
    const failed = (error: unknown) => log.error({ err: error, key: entry.job.key }, 'scheduled fire handler threw');
    try {
      // A promise it returns is not held (no sharedFires here); only its rejection is logged.
      void onFire?.(copyJob(entry.job), plannedMs)?.catch(failed);
    } catch (error) {
      failed(error);
    }
    if (fired.size === 0) setImmediate(rearmFired);
    fired.set(entry, plannedMs);
  }

  const settled = () => Promise.all([...entries.values()].map((e) => e.chain));

  async function stop(): Promise<void> {
    if (!running) return;
    running = false;
    fired.clear();
    for (const entry of entries.values()) disarm(entry);
    await settled();
    if (loadingBree) await (await loadingBree).stop();
    onFire = null;
  }

  return {
    id: 'bree',
    capabilities: { timezones: true },
    get running() {
      return running;
    },

    upcoming(timing: JobTiming, afterMs: number, count = 1) {
      return upcomingFires(compileTiming(timing), afterMs, count);
    },

    async upsert(job) {
      if (typeof job.key !== 'string' || job.key === '') throw Errors.INVALID_SCHEDULE({ reason: 'a job needs a non-empty key' });
      upcomingFires(compileTiming(job), Date.now()); // refuses a timing that never fires
      const existing = entries.get(job.key);
      const entry: Entry = existing ?? { job, armedName: null, plannedMs: null, chain: Promise.resolve() };
      entry.job = copyJob(job);
      entries.set(job.key, entry);
      fired.delete(entry);
      if (running) arm(entry, Date.now());
      await entry.chain;
    },

    async remove(key) {
      const entry = entries.get(key);
      if (!entry) return false;
      entries.delete(key);
      fired.delete(entry);
      disarm(entry);
      await entry.chain;
      return true;
    },

    nextRun(key) {
      const entry = entries.get(key);
      if (!entry || !running) return null;
      rearm(entry); // just fired: plan its next time now rather than answer the past one
      return entry.plannedMs;
    },

    jobs() {
      return [...entries.values()].map((e) => copyJob(e.job));
    },

    async start(handler) {
      if (running) throw new Error('the scheduler is already running');
      onFire = handler;
      running = true;
      const now = Date.now();
      for (const entry of entries.values()) arm(entry, now);
      await settled();
    },

    stop,
  };
}
