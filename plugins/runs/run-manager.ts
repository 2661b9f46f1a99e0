import { settleWithin } from './settle-within.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import { RunStop, type LiveRun } from './live-run.js';

/**
 * The runs of this process: a FIFO queue bounded by MAX_CONCURRENT_RUNS, the live runs by execution id (each with
 * its AbortController), and the after-run work (output push, webhook) still going, for a graceful shutdown.
 */
export interface RunManager {
  /** False once shutdown began: no run may start. */
  readonly accepting: boolean;
  register(run: LiveRun): void;
  unregister(run: LiveRun): void;
  get(executionId: string): LiveRun | undefined;
  some(test: (run: LiveRun) => boolean): boolean;
  /** Waits for a slot in arrival order; rejects with the signal's reason when the run is stopped while waiting. */
  acquire(signal: AbortSignal): Promise<() => void>;
  /** Runs holding a slot, and runs waiting for one. */
  counts(): { running: number; queued: number };
  /** Keeps `work` in view until it settles, so shutdown can wait for it. */
  track(work: Promise<unknown>): void;
  /**
   * Stops taking runs, stops queued ones (`cancelled`), gives running ones `graceMs` to end, then stops them
   * (`interrupted`), and waits (bounded) for the after-run work.
   */
  shutdown(graceMs: number): Promise<void>;
}

// With the 10 s grace these keep shutdown within the kernel's close limit (25 s).
const AFTER_RUN_WAIT_MS = 5_000;
const STOP_WAIT_MS = 8_000;

export function createRunManager(maxConcurrent: number, logger: Logger): RunManager {
  const live = new Map<string, LiveRun>();
  const waiting: Array<() => void> = [];
  const afterRun = new Set<Promise<unknown>>();
  let active = 0;
  let accepting = true;

  function releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      active--;
      waiting.shift()?.();
    };
  }

  const finishedOf = (runs: LiveRun[]) => Promise.allSettled(runs.map((run) => run.finished));

  return {
    get accepting() {
      return accepting;
    },
    register: (run) => { live.set(run.executionId, run); },
    unregister: (run) => { if (live.get(run.executionId) === run) live.delete(run.executionId); },
    get: (executionId) => live.get(executionId),
    some: (test) => [...live.values()].some(test),
    counts: () => ({ running: active, queued: waiting.length }),

    acquire(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (active < maxConcurrent && waiting.length === 0) {
        active++;
        return Promise.resolve(releaser());
      }
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener('abort', onAbort);
          active++;
          resolve(releaser());
        };
        const onAbort = () => {
          const at = waiting.indexOf(grant);
          if (at >= 0) waiting.splice(at, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.push(grant);
      });
    },

    track(work) {
      const settled = work.catch(() => undefined);
      afterRun.add(settled);
      void settled.then(() => afterRun.delete(settled));
    },

    async shutdown(graceMs) {
      accepting = false;
      const runs = [...live.values()];
      const queued = runs.filter((run) => run.status === 'queued');
      for (const run of queued) run.controller.abort(new RunStop('cancelled', 'The service is shutting down; the run had not started'));
      const running = runs.filter((run) => run.status !== 'queued');
      if (running.length > 0) logger.info({ running: running.length, graceMs }, 'waiting for running runs to finish');
      await settleWithin(finishedOf(running), graceMs, undefined, () => undefined);
      const left = running.filter((run) => live.get(run.executionId) === run);
      if (left.length > 0) logger.warn({ runs: left.length }, 'stopping runs that did not finish in time: they end as interrupted');
      for (const run of left) run.controller.abort(new RunStop('interrupted', 'The service stopped while the run was in progress'));
      await settleWithin(finishedOf(runs), STOP_WAIT_MS, undefined, () => undefined);
      await settleWithin(Promise.allSettled([...afterRun]), AFTER_RUN_WAIT_MS, undefined, () => undefined);
    },
  };
}
