import { MAX_DELAY_MS, type EnqueueOptions, type WorkerOptions } from '../../../kernel/contracts/queue.js';

/** The lease of a worker that names none (kernel/contracts/queue.ts). */
export const DEFAULT_LEASE_MS = 30_000;

const QUEUE_NAME = /^[A-Za-z0-9_-]{1,50}$/;
const JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Throws a TypeError naming the mistake: queue names and ids are the caller's code, never user input. */
export function checkQueueName(queue: string): void {
  if (!QUEUE_NAME.test(queue)) throw new TypeError(`queue name "${queue}" must be 1 to 50 letters, digits, "_" or "-"`);
}

export function checkEnqueue(queue: string, options: EnqueueOptions = {}): void {
  checkQueueName(queue);
  if (options.id !== undefined && !JOB_ID.test(options.id)) throw new TypeError(`job id "${options.id}" must be 1 to 128 letters, digits, "_" or "-"`);
  if (options.key !== undefined && (options.key.length === 0 || options.key.length > 256)) throw new TypeError('a job key must be 1 to 256 characters');
  const { delayMs } = options;
  if (delayMs !== undefined && !(Number.isFinite(delayMs) && delayMs >= 0 && delayMs <= MAX_DELAY_MS)) throw new RangeError(`delayMs ${delayMs} must be from 0 to ${MAX_DELAY_MS}`);
}

/** The worker's options with the lease filled in; throws a TypeError for values out of range. */
export function workerSettings(queue: string, options: WorkerOptions): Required<WorkerOptions> {
  checkQueueName(queue);
  const { concurrency, leaseMs = DEFAULT_LEASE_MS } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) throw new TypeError(`concurrency ${concurrency} must be a whole number from 1 to 1024`);
  if (!Number.isInteger(leaseMs) || leaseMs < 1000) throw new TypeError(`leaseMs ${leaseMs} must be a whole number of at least 1000`);
  return { concurrency, leaseMs };
}

/** What a payload becomes on a durable engine, so the in-process queue hands over the same. */
export function jsonCopy<P>(payload: P): P {
  return payload === undefined ? payload : JSON.parse(JSON.stringify(payload)) as P;
}
