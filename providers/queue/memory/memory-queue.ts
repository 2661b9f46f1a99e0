import crypto from 'node:crypto';
import type { EnqueueOptions, JobHandler, JobQueue, JobState, QueueWorker, WorkerOptions } from '../../../kernel/contracts/queue.js';
import { checkEnqueue, checkQueueName, jsonCopy, workerSettings } from '../shared/queue-names.js';
import { createTopicListeners, encodeMessage } from '../shared/topic-messages.js';

interface MemoryJob {
  id: string;
  payload: unknown;
  key?: string;
  state: JobState;
  /** While it waits out its `delayMs`: the timer that puts it in line. */
  timer?: NodeJS.Timeout;
}

interface MemoryWorker {
  concurrency: number;
  held: number;
  taking: boolean;
  handler: JobHandler;
  running: Set<Promise<void>>;
}

interface Lane {
  waiting: MemoryJob[];
  jobs: Map<string, MemoryJob>;
  /** The last job enqueued with each key. */
  keys: Map<string, MemoryJob>;
  workers: MemoryWorker[];
  /** The worker the next job goes to first: jobs are spread over workers in turn. */
  turn: number;
}

/** Ended jobs are remembered (for `state`) up to this many per queue; the oldest are forgotten first. */
const ENDED_KEPT = 10_000;

/**
 * The in-process queue: first in, first out, delivered the moment a worker has a free slot. Nothing outlives the
 * process, so no lease applies (a worker cannot die while its process lives). Topics reach this process only.
 */
export function createMemoryQueue(): JobQueue {
  const lanes = new Map<string, Lane>();
  const workers = new Set<QueueWorker>();
  const listeners = createTopicListeners();
  // Messages go out in order, after the publisher's turn (as a durable engine's would).
  let delivering = Promise.resolve();

  const lane = (queue: string): Lane => {
    let found = lanes.get(queue);
    if (!found) lanes.set(queue, (found = { waiting: [], jobs: new Map(), keys: new Map(), workers: [], turn: 0 }));
    return found;
  };

  function forgetEnded(l: Lane): void {
    if (l.jobs.size <= ENDED_KEPT + l.waiting.length) return;
    for (const [id, job] of l.jobs) {
      if (l.jobs.size <= ENDED_KEPT) break;
      if (job.state !== 'queued' && job.state !== 'active') l.jobs.delete(id);
    }
  }

  /** The job has ended: its key is free again. */
  function end(l: Lane, job: MemoryJob, state: JobState): void {
    job.state = state;
    job.payload = undefined; // only `state` is asked of an ended job
    if (job.key !== undefined && l.keys.get(job.key) === job) l.keys.delete(job.key);
  }

  function dispatch(queue: string, l: Lane): void {
    while (l.waiting.length > 0) {
      const free = l.workers.length === 0 ? -1 : l.workers.findIndex((_, i) => {
        const w = l.workers[(l.turn + i) % l.workers.length]!;
        return w.taking && w.held < w.concurrency;
      });
      if (free < 0) return;
      const worker = l.workers[(l.turn + free) % l.workers.length]!;
      l.turn = (l.turn + free + 1) % l.workers.length;
      const job = l.waiting.shift()!;
      job.state = 'active';
      worker.held++;
      const done = (async () => worker.handler({ id: job.id, queue, payload: jsonCopy(job.payload), attempt: 1 }))()
        .then(() => end(l, job, 'completed'), () => end(l, job, 'failed'))
        .finally(() => {
          worker.held--;
          worker.running.delete(done);
          forgetEnded(l);
          dispatch(queue, l);
        });
      worker.running.add(done);
    }
  }

  return {
    id: 'memory',
    capabilities: { durable: false, delay: true },

    async enqueue<P>(queue: string, payload: P, options: EnqueueOptions = {}) {
      checkEnqueue(queue, options);
      const l = lane(queue);
      const id = options.id ?? crypto.randomUUID();
      if (l.jobs.has(id)) return null;
      const same = options.key === undefined ? undefined : l.keys.get(options.key);
      if (same && (same.state === 'queued' || same.state === 'active')) return null;
      const job: MemoryJob = { id, payload: jsonCopy(payload), state: 'queued', ...(options.key === undefined ? {} : { key: options.key }) };
      l.jobs.set(id, job);
      if (options.key !== undefined) l.keys.set(options.key, job);
      const line = () => {
        delete job.timer;
        l.waiting.push(job);
        dispatch(queue, l);
      };
      if (options.delayMs) job.timer = setTimeout(line, options.delayMs);
      else line();
      return id;
    },

    async work<P>(queue: string, options: WorkerOptions, handler: JobHandler<P>) {
      const { concurrency } = workerSettings(queue, options);
      const l = lane(queue);
      const worker: MemoryWorker = { concurrency, held: 0, taking: true, handler: handler as JobHandler, running: new Set() };
      l.workers.push(worker);
      let stopping: Promise<void> | undefined;
      const handle: QueueWorker = {
        get held() {
          return worker.held;
        },
        stop() {
          stopping ??= (async () => {
            worker.taking = false;
            l.workers.splice(l.workers.indexOf(worker), 1);
            l.turn = 0;
            while (worker.running.size > 0) await Promise.allSettled([...worker.running]);
            workers.delete(handle);
          })();
          return stopping;
        },
      };
      workers.add(handle);
      dispatch(queue, l);
      return handle;
    },

    async cancel(queue, jobId) {
      checkQueueName(queue);
      const l = lanes.get(queue);
      const job = l?.jobs.get(jobId);
      if (!l || job?.state !== 'queued') return false;
      if (job.timer) clearTimeout(job.timer);
      else l.waiting.splice(l.waiting.indexOf(job), 1);
      end(l, job, 'cancelled');
      return true;
    },

    async state(queue, jobId) {
      checkQueueName(queue);
      return lanes.get(queue)?.jobs.get(jobId)?.state;
    },

    async publish(topic, message) {
      const json = encodeMessage(topic, message);
      delivering = delivering.then(() => listeners.deliver(topic, json));
      await delivering;
    },

    async subscribe(topic, listener) {
      checkQueueName(topic);
      listeners.add(topic, listener);
      return async () => { listeners.remove(topic, listener); };
    },

    async stop() {
      listeners.clear();
      for (const l of lanes.values()) for (const job of l.jobs.values()) clearTimeout(job.timer);
      await Promise.all([...workers].map((worker) => worker.stop()));
    },
  };
}
