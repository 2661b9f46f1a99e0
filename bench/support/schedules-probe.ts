import { randomUUID } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { TaskRuns } from '../../plugins/runs/decorators.js';
import type { FireHandler, Scheduler } from '../../kernel/contracts/scheduler.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';

/** A full collection before a memory reading, without asking for `node --expose-gc`. */
export function memoryNow(): { heapMb: number; rssMb: number } {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapMb: heapUsed / 2 ** 20, rssMb: rss / 2 ** 20 };
}

/** The scheduler as the plugin sees it, noting how late (ms after the planned time) each fire is delivered. */
export function withFireLateness(scheduler: Scheduler, lateness: number[]): Scheduler {
  return {
    get id() { return scheduler.id; },
    get capabilities() { return scheduler.capabilities; },
    get running() { return scheduler.running; },
    upcoming: (timing, afterMs, count) => scheduler.upcoming(timing, afterMs, count),
    upsert: (job) => scheduler.upsert(job),
    remove: (key) => scheduler.remove(key),
    nextRun: (key) => scheduler.nextRun(key),
    jobs: () => scheduler.jobs(),
    stop: () => scheduler.stop(),
    start: (onFire: FireHandler) => scheduler.start((job, fireTimeMs) => {
      lateness.push(Date.now() - fireTimeMs);
      onFire(job, fireTimeMs);
    }),
  };
}

/**
 * A runner that runs no browser: it stores an execution (trigger `schedule`) as the runs plugin would, and notes
 * how late each run started after its minute (every bench schedule fires on whole minutes).
 */
export function createBenchRuns(storage: StorageProvider, runLateness: number[]): TaskRuns {
  const running = new Set<string>();
  return {
    isRunning: (taskId) => running.has(taskId),
    async run(taskId, options) {
      const started = Date.now();
      runLateness.push(started - Math.floor(started / 60_000) * 60_000);
      running.add(taskId);
      try {
        const executionId = randomUUID();
        await storage.executions.insert({
          executionId, taskId, taskName: taskId, status: 'success', trigger: options.trigger,
          startedAt: new Date(started).toISOString(), finishedAt: new Date().toISOString(), durationMs: 0, result: {}, logs: [],
        });
        return { executionId, status: 'success', durationMs: Date.now() - started };
      } finally {
        running.delete(taskId);
      }
    },
  };
}

/** The end of a lateness window: `count` whole minutes from now have begun, plus `graceMs` for their fires. */
export const windowEnd = (count: number, graceMs = 2_000) => (Math.floor(Date.now() / 60_000) + count) * 60_000 + graceMs;

export const sleepUntil = (endMs: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, endMs - Date.now())));
