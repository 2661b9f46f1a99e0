import { settleWithin } from '../../layers/async/settle-within.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import { RunStop, type LiveRun } from './live-run.js';

/**
 * The runs of this process: the live ones by execution id (each with its AbortController; queued ones too while
 * they wait in the in-process queue), and the after-run work (output push, webhook) still going, for a graceful
 * shutdown. The queue (services.queue) decides when a run starts; this only keeps what runs here.
 */
export interface RunManager {
  /** False once shutdown began: no run may start. */
  readonly accepting: boolean;
  register(run: LiveRun): void;
  unregister(run: LiveRun): void;
  get(executionId: string): LiveRun | undefined;
  some(test: (run: LiveRun) => boolean): boolean;
  /** The live runs now. */
  runs(): LiveRun[];
  /** Runs of this process under way, and runs it queued that wait for a worker. */
  counts(): { running: number; queued: number };
  /** Keeps `work` in view until it settles, so shutdown can wait for it. */
  track(work: Promise<unknown>): void;
  /**
   * Stops taking runs, lets `stopQueued` deal with the queued ones (cancelled with the in-process queue, left
   * queued with a shared one), gives running ones `graceMs` to end, then stops them (`interrupted`), and waits
   * (bounded) for them and the after-run work.
   */
  shutdown(graceMs: number, stopQueued: (runs: LiveRun[]) => Promise<void>): Promise<void>;
}

// With the 10 s grace these keep shutdown within the kernel's close limit (25 s).
const AFTER_RUN_WAIT_MS = 5_000;
const STOP_WAIT_MS = 8_000;

/** `waiting()`: how many runs this process queued on a shared queue and still waits for (they are not live here). */
export function createRunManager(logger: Logger, waiting: () => number = () => 0): RunManager {
  const live = new Map<string, LiveRun>();
  const afterRun = new Set<Promise<unknown>>();
  let accepting = true;

  const finishedOf = (runs: LiveRun[]) => Promise.allSettled(runs.map((run) => run.finished));

  return {
    get accepting() {
      return accepting;
    },
    register: (run) => { live.set(run.executionId, run); },
    unregister: (run) => { if (live.get(run.executionId) === run) live.delete(run.executionId); },
    get: (executionId) => live.get(executionId),
    some: (test) => [...live.values()].some(test),
    runs: () => [...live.values()],
    counts: () => {
      const queued = [...live.values()].filter((run) => run.status === 'queued').length;
      return { running: live.size - queued, queued: queued + waiting() };
    },

    track(work) {
      const settled = work.catch(() => undefined);
      afterRun.add(settled);
      void settled.then(() => afterRun.delete(settled));
    },

    async shutdown(graceMs, stopQueued) {
      accepting = false;
      const runs = [...live.values()];
      await stopQueued(runs.filter((run) => run.status === 'queued'));
      const running = runs.filter((run) => run.status !== 'queued');
      if (running.length > 0) logger.info({ running: running.length, graceMs }, 'waiting for running runs to finish');
      await settleWithin(finishedOf(running), graceMs, undefined, () => undefined);
      const left = [...live.values()].filter((run) => run.status !== 'queued');
      if (left.length > 0) logger.warn({ runs: left.length }, 'stopping runs that did not finish in time: they end as interrupted');
      for (const run of left) run.controller.abort(new RunStop('interrupted', 'The service stopped while the run was in progress'));
      await settleWithin(finishedOf([...live.values()]), STOP_WAIT_MS, undefined, () => undefined);
      await settleWithin(Promise.allSettled([...afterRun]), AFTER_RUN_WAIT_MS, undefined, () => undefined);
    },
  };
}
