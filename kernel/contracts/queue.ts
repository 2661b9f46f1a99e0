/**
 * The queue contract's version (`major.minor`, see provider.ts), and the oldest a queue may be built for. 1.1: the
 * optional `publish` and `subscribe` (messages to every process on the engine), and `QueueJob.signal`. 1.2: the optional
 * `EnqueueOptions.delayMs` (with `capabilities.delay`).
 */
export const QUEUE_CONTRACT_VERSION = '1.2';
export const QUEUE_CONTRACT_ACCEPTS = '1.0';

/**
 * A queue name: letters, digits, `_` and `-`, 1 to 50 characters (what every engine accepts). A queue is created
 * on first use. Job ids follow the same rule, up to 128 characters.
 */
export type QueueName = string;

export interface EnqueueOptions {
  /** The job's id (QueueName rules, up to 128); default: generated. An id already in the queue adds nothing. */
  id?: string;
  /**
   * Dedup: while a job with the same key is queued or being worked in this queue (not yet completed, failed or
   * cancelled), enqueueing another with it adds nothing and resolves to null.
   */
  key?: string;
  /**
   * Optional (1.2, where `capabilities.delay`): no worker takes the job sooner than this many milliseconds from now
   * (0 to MAX_DELAY_MS; a RangeError beyond), on the engine's clock. Meanwhile it is `queued` and `cancel` removes it.
   * It may start up to a poll interval (a few seconds) later than asked.
   */
  delayMs?: number;
}

/** The longest `EnqueueOptions.delayMs`: one day. */
export const MAX_DELAY_MS = 24 * 3600 * 1000;

/** Where a job is: waiting for a worker, held by one, or ended. */
export type JobState = 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';

/** A job as a worker's handler receives it. */
export interface QueueJob<P = unknown> {
  id: string;
  queue: QueueName;
  /** What `enqueue` was given, as JSON round-trips it. */
  payload: P;
  /** 1 on the first delivery; more when a worker that held it died and the engine gave it back. */
  attempt: number;
  /**
   * Optional (1.1): aborted when the worker lost the job's lease: it could not renew it for half of it (the engine
   * unreachable), or the engine says another may hold it. The engine may give the job to another worker once the
   * lease lapses, so the handler should stop what it does for the job. Absent where no lease applies (in-process).
   */
  signal?: AbortSignal;
}

/**
 * Works one job. Resolving completes it; rejecting fails it (never delivered again). The worker renews the job's
 * lease while the handler runs.
 */
export type JobHandler<P = unknown> = (job: QueueJob<P>) => Promise<void>;

export interface WorkerOptions {
  /** At most this many jobs held (and handlers running) at once, 1 to 1024. A worker never takes more. */
  concurrency: number;
  /**
   * How long (ms, at least 1000; default 30000) a job stays held without its worker renewing the lease: a worker
   * whose process died gives its jobs back this long (plus the engine's check interval) after its last renewal.
   */
  leaseMs?: number;
}

export interface QueueWorker {
  /** Jobs held now (handlers running). */
  readonly held: number;
  /**
   * Stops taking jobs, then resolves once every handler it started has settled (their jobs completed or failed).
   * The caller ends long handlers itself (their own grace). Idempotent.
   */
  stop(): Promise<void>;
}

/** Optional features of a queue. */
export interface QueueCapabilities {
  /**
   * Jobs outlive the process and are shared: any worker of any process on the same engine takes them, and a
   * worker that dies gives its jobs back after its lease. When false (in-process) jobs live and die with the process.
   */
  durable: boolean;
  /** Optional (1.2): `EnqueueOptions.delayMs` is honoured. Absent or false: the caller waits itself before enqueueing. */
  delay?: boolean;
}

/** Receives the messages of a topic (see `JobQueue.subscribe`). */
export type TopicListener = (message: unknown) => void;

/** The largest message `publish` takes, as JSON (bytes). */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * The queue capability: jobs in named queues, handed to workers with a concurrency limit, at least once (exactly
 * once while no worker dies: two workers never hold the same job). Delivery is first in, first out per queue, and
 * immediate: a job enqueued while a worker has a free slot starts within tens of milliseconds, whichever process
 * enqueued it (no polling interval). A worker that dies without completing gives its jobs back after its lease
 * (`leaseMs`); they are delivered again with a higher `attempt` (an engine may fail a job given back ten times).
 * Every method rejects when the engine is unreachable.
 */
export interface JobQueue {
  /** The provider id, e.g. `memory`, `pg-boss`. */
  readonly id: string;
  readonly capabilities: QueueCapabilities;

  /** Adds a job; resolves to its id once it is durable (null: nothing added, see EnqueueOptions). */
  enqueue<P>(queue: QueueName, payload: P, options?: EnqueueOptions): Promise<string | null>;

  /** Starts a worker on `queue`; several workers (in one or many processes) share its jobs. */
  work<P>(queue: QueueName, options: WorkerOptions, handler: JobHandler<P>): Promise<QueueWorker>;

  /** Removes a job that is still queued: true; false when it is held, ended or unknown (nothing changes). */
  cancel(queue: QueueName, jobId: string): Promise<boolean>;

  /** Where the job is; undefined for an unknown id (an engine may forget ended jobs after a while). */
  state(queue: QueueName, jobId: string): Promise<JobState | undefined>;

  /**
   * Optional (1.1, with `subscribe`): sends `message` (a JSON value, at most MAX_MESSAGE_BYTES as JSON; a TypeError
   * beyond) to every subscriber of `topic` (QueueName rules) in every process on the same engine, this one included,
   * within milliseconds. At most once and without history: a subscriber that was not listening then (not yet
   * subscribed, its connection down) misses it. Messages of one process on one topic arrive in the order published.
   * Resolves once the engine took it; rejects when it is unreachable.
   */
  publish?(topic: QueueName, message: unknown): Promise<void>;

  /**
   * Optional (1.1, with `publish`): calls `listener` with each message published on `topic` from the moment it
   * resolves (as JSON round-trips it); resolves to a function that stops it. After a lost connection the provider
   * listens again by itself (what was published meanwhile is missed). A listener that throws is ignored.
   */
  subscribe?(topic: QueueName, listener: TopicListener): Promise<() => Promise<void>>;

  /**
   * Stops every worker (as `QueueWorker.stop`) and every subscription, and releases the engine's connections. Queued jobs stay queued on a
   * durable engine. Idempotent.
   */
  stop(): Promise<void>;
}
