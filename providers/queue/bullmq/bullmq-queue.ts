import crypto from 'node:crypto';
import { Queue, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { EnqueueOptions, JobHandler, JobQueue, JobState, QueueWorker, WorkerOptions } from '../../../kernel/contracts/queue.js';
import { checkEnqueue, checkQueueName, workerSettings } from '../shared/queue-names.js';
import { createLeaseWatch } from '../shared/lease-watch.js';
import { createTopicListeners, encodeMessage } from '../shared/topic-messages.js';

export interface BullmqQueueOptions {
  /** REDIS_URL: redis:// or rediss://, with user, password and database number when needed. */
  url: string;
  logger: Logger;
  /** Prefix of every Redis key (default `taskloom`): instances sharing jobs use the same one. */
  prefix?: string;
}

interface StoredJob {
  id: string;
  payload: unknown;
}

/** How long start-up waits for Redis before giving up. */
const CONNECT_TIMEOUT_MS = 10_000;
/** A Redis outage is logged once per this long, not once per reconnect attempt. */
const LOG_EVERY_MS = 30_000;

/** A dead worker's job comes back this many times at most, then fails (a job that kills every worker). */
const GIVE_BACK_LIMIT = 10;
/** Ended jobs are kept this long (and at most this many) for `state`; cancelled ones leave a marker as long. */
const KEEP_ENDED_S = 7 * 24 * 3600;
const KEEP_ENDED_COUNT = 10_000;

const STATES: Record<string, JobState> = {
  waiting: 'queued', delayed: 'queued', prioritized: 'queued', 'waiting-children': 'queued', active: 'active',
  completed: 'completed', failed: 'failed',
};

/** ioredis options out of a redis:// URL (BullMQ opens its own connections with them, and closes them). */
export function connectionOf(url: string): ConnectionOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(parsed.port || 6379),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null, // what BullMQ's workers require
  };
}

/**
 * BullMQ on Redis: a job waits in a list, an idle worker blocks on it (no polling), a held job keeps a lock its
 * worker renews (`leaseMs`), and the stalled-job check of any worker gives a dead worker's jobs back. Topic
 * messages are Redis pub/sub.
 */
export async function createBullmqQueue(options: BullmqQueueOptions): Promise<JobQueue> {
  const connection = connectionOf(options.url);
  // Producers fail fast while Redis is away (workers keep waiting for it, as BullMQ requires).
  const producer = { ...connection, maxRetriesPerRequest: 1, enableOfflineQueue: false };
  const prefix = options.prefix ?? 'taskloom';
  const { logger } = options;
  let loggedAtMs = 0;
  const warn = (error: unknown, queue: string, message: string) => {
    if (Date.now() - loggedAtMs < LOG_EVERY_MS) return;
    loggedAtMs = Date.now();
    logger.warn({ err: error, queue }, message);
  };
  const queues = new Map<string, Queue>();
  const workers = new Set<QueueWorker>();

  const queueOf = (name: string): Queue => {
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: producer, prefix });
      queue.on('error', (error) => warn(error, name, 'the Redis queue reported an error'));
      queues.set(name, queue);
    }
    return queue;
  };
  const cancelledKey = (name: string, id: string) => `${prefix}:${name}:cancelled:${id}`;
  // Topics are Redis pub/sub channels; a subscribing connection can do nothing else, so it is one of its own.
  const topicChannel = (topic: string) => `${prefix}:topic:${topic}`;
  const listeners = createTopicListeners();
  // Publishing fails fast while Redis is away, as enqueueing does; the subscriber waits it out (and subscribes again).
  let publisher: Redis | undefined;
  let subscriber: Redis | undefined;
  const open = (options: RedisOptions) => {
    const redis = new Redis({ ...(connection as RedisOptions), ...options });
    redis.on('error', (error: unknown) => warn(error, 'topics', 'the Redis topic connection reported an error'));
    return redis;
  };
  const subscriberOf = (): Redis => {
    if (subscriber) return subscriber;
    subscriber = open({ maxRetriesPerRequest: null });
    subscriber.on('message', (channel: string, json: string) => {
      if (channel.startsWith(`${prefix}:topic:`)) listeners.deliver(channel.slice(prefix.length + 7), json);
    });
    return subscriber;
  };
  // Fails on a wrong URL or an unreachable server, as the other providers do.
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      queueOf('taskloom-probe').waitUntilReady(),
      new Promise((_, reject) => {
        const { host, port } = connection as { host: string; port: number };
        timer = setTimeout(() => reject(new Error(`Redis at ${host}:${port} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s: check REDIS_URL`)), CONNECT_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    await Promise.all([...queues.values()].map((queue) => queue.close().catch(() => undefined)));
    throw error;
  } finally {
    clearTimeout(timer);
  }

  let stopping: Promise<void> | undefined;
  return {
    id: 'bullmq',
    capabilities: { durable: true, delay: true },

    async enqueue<P>(name: string, payload: P, enqueueOptions: EnqueueOptions = {}) {
      checkEnqueue(name, enqueueOptions);
      const queue = queueOf(name);
      const id = enqueueOptions.id ?? crypto.randomUUID();
      if (enqueueOptions.id !== undefined && (await queue.getJob(id))) return null;
      const data: StoredJob = { id, payload: payload === undefined ? null : payload };
      const job = await queue.add('job', data, {
        jobId: id, attempts: 1, ...(enqueueOptions.delayMs ? { delay: Math.round(enqueueOptions.delayMs) } : {}),
        removeOnComplete: { age: KEEP_ENDED_S, count: KEEP_ENDED_COUNT }, removeOnFail: { age: KEEP_ENDED_S, count: KEEP_ENDED_COUNT },
        ...(enqueueOptions.key === undefined ? {} : { deduplication: { id: enqueueOptions.key } }),
      });
      return job.id === id ? id : null; // another id: a job with the same key is still queued or active
    },

    async work<P>(name: string, workerOptions: WorkerOptions, handler: JobHandler<P>) {
      const { concurrency, leaseMs } = workerSettings(name, workerOptions);
      const leases = createLeaseWatch(leaseMs, (jobId, why) => logger.warn({ queue: name, jobId }, `a held job's lease is lost (${why}): its handler is told to stop`));
      const worker = new Worker<StoredJob>(name, async (job: Job<StoredJob>) => {
        const signal = leases.hold(job.id!);
        try {
          await handler({ id: job.data.id, queue: name, payload: job.data.payload as P, attempt: Math.max(1, job.attemptsStarted), signal });
        } finally {
          leases.release(job.id!);
        }
      }, {
        connection, prefix, concurrency, lockDuration: leaseMs, stalledInterval: leaseMs, maxStalledCount: GIVE_BACK_LIMIT,
        // Renewed every sixth of the lease (BullMQ's default, half of it, would leave a lock unrenewed past the
        // half-lease at which the handler is told to stop).
        lockRenewTime: Math.floor(leaseMs / 6),
      });
      worker.on('error', (error) => warn(error, name, 'a Redis queue worker reported an error'));
      worker.on('locksRenewed', ({ jobIds }) => leases.renewed(jobIds));
      worker.on('lockRenewalFailed', (jobIds) => { for (const id of jobIds) leases.lose(id, 'Redis refused the renewal: another worker may hold it'); });
      await worker.waitUntilReady();
      let stopped: Promise<void> | undefined;
      const handle: QueueWorker = {
        get held() {
          return leases.size;
        },
        stop() {
          stopped ??= worker.close().finally(() => {
            leases.stop();
            workers.delete(handle);
          });
          return stopped;
        },
      };
      workers.add(handle);
      return handle;
    },

    async cancel(name, jobId) {
      checkQueueName(name);
      const queue = queueOf(name);
      const job = await queue.getJob(jobId);
      if (!job || STATES[await job.getState()] !== 'queued') return false;
      // Removal refuses a job a worker locked meanwhile: then it is held, and stays.
      const removed = await queue.remove(jobId);
      if (removed !== 1) return false;
      await (await queue.client).set(cancelledKey(name, jobId), '1', { EX: KEEP_ENDED_S });
      return true;
    },

    async state(name, jobId) {
      checkQueueName(name);
      const queue = queueOf(name);
      const job = await queue.getJob(jobId);
      if (job) return STATES[await job.getState()];
      return (await (await queue.client).get(cancelledKey(name, jobId))) === null ? undefined : 'cancelled';
    },

    async publish(topic, message) {
      const json = encodeMessage(topic, message);
      publisher ??= open({ maxRetriesPerRequest: 1 }); // waits for its first connection, fails after one retry
      await publisher.publish(topicChannel(topic), json);
    },

    async subscribe(topic, listen) {
      checkQueueName(topic);
      // ioredis subscribes again by itself after a reconnect.
      if (listeners.add(topic, listen)) await subscriberOf().subscribe(topicChannel(topic));
      return async () => {
        if (listeners.remove(topic, listen)) await subscriber?.unsubscribe(topicChannel(topic)).catch(() => undefined);
      };
    },

    stop() {
      stopping ??= (async () => {
        listeners.clear();
        subscriber?.disconnect();
        publisher?.disconnect();
        await Promise.all([...workers].map((worker) => worker.stop()));
        await Promise.all([...queues.values()].map((queue) => queue.close().catch(() => undefined)));
      })();
      return stopping;
    },
  };
}
