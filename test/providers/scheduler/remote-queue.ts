// A JobQueue whose engine (pg-boss, BullMQ) runs in a helper process, spoken to over IPC. The scheduler contract
// mocks this process's clock (setTimeout, setInterval, Date); the engines' network clients (pg-pool, ioredis) keep
// timers of their own, which a mocked clock would hold still or confuse. In the helper they run on the real clock,
// while the scheduler under test (its timers, its handlers) runs here on the mocked one. IPC uses no timer.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { JobHandler, JobQueue, JobState, QueueJob, QueueWorker, WorkerOptions } from '../../../kernel/contracts/queue.js';

export interface RemoteQueueSpec {
  engine: 'pg-boss' | 'bullmq';
  /** DATABASE_URL or REDIS_URL. */
  url: string;
  /** BullMQ's key prefix. */
  prefix?: string;
}

/** Parent to helper: a call. Helper to parent: its answer, or a job for a worker's handler. */
export type ToHelper =
  | { type: 'call'; seq: number; method: 'enqueue' | 'cancel' | 'state' | 'work' | 'stopWorker' | 'stop'; args: unknown[] }
  | { type: 'handled'; seq: number; error?: string };
export type ToParent =
  | { type: 'answer'; seq: number; value?: unknown; error?: string }
  | { type: 'job'; seq: number; worker: number; job: QueueJob };

const MAIN = path.resolve('test/providers/scheduler/remote-queue-main.ts');

export async function openRemoteQueue(spec: RemoteQueueSpec): Promise<JobQueue> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, REMOTE_QUEUE: JSON.stringify(spec) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let seq = 0;
  const answers = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const handlers = new Map<number, JobHandler>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    for (const { reject } of answers.values()) reject(new Error('the queue helper exited'));
    resolve();
  }));

  child.on('message', (message: ToParent) => {
    if (message.type === 'answer') {
      const waiting = answers.get(message.seq);
      answers.delete(message.seq);
      if (message.error === undefined) waiting?.resolve(message.value);
      else waiting?.reject(new Error(message.error));
      return;
    }
    const handler = handlers.get(message.worker);
    const reply = (error?: string) => child.send({ type: 'handled', seq: message.seq, ...(error === undefined ? {} : { error }) } satisfies ToHelper);
    if (!handler) return reply('no handler');
    void (async () => handler(message.job))().then(() => reply(), (error: unknown) => reply(String(error)));
  });

  const call = <T>(method: Extract<ToHelper, { type: 'call' }>['method'], ...args: unknown[]) => new Promise<T>((resolve, reject) => {
    const id = ++seq;
    answers.set(id, { resolve: resolve as (value: unknown) => void, reject });
    child.send({ type: 'call', seq: id, method, args } satisfies ToHelper);
  });

  // The helper answers `seq` 0 once its engine is open.
  await new Promise((resolve, reject) => answers.set(0, { resolve, reject }));
  return {
    id: spec.engine,
    capabilities: { durable: true },
    enqueue: (queue, payload, options) => call('enqueue', queue, payload, options),
    async work<P>(queue: string, options: WorkerOptions, handler: JobHandler<P>): Promise<QueueWorker> {
      const worker = await call<number>('work', queue, options);
      handlers.set(worker, handler as JobHandler);
      let stopping: Promise<void> | undefined;
      return {
        held: 0,
        stop: () => (stopping ??= call<void>('stopWorker', worker).finally(() => handlers.delete(worker))),
      };
    },
    cancel: (queue, jobId) => call('cancel', queue, jobId),
    state: (queue, jobId) => call<JobState | null>('state', queue, jobId).then((state) => state ?? undefined),
    async stop() {
      if (child.exitCode === null) {
        await call('stop').catch(() => undefined);
        child.kill();
      }
      await exited;
    },
  };
}
