import crypto from 'node:crypto';
import PgBoss from 'pg-boss';
import pg from 'pg';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { EnqueueOptions, JobHandler, JobQueue, JobState, WorkerOptions } from '../../../kernel/contracts/queue.js';
import { checkEnqueue, checkQueueName, DEFAULT_LEASE_MS, workerSettings } from '../shared/queue-names.js';
import { engineId, type StoredJob } from './job-ids.js';
import { startPgBossWorker, type PgBossWorker } from './pg-boss-worker.js';
import { createTopicListeners, encodeMessage } from '../shared/topic-messages.js';
import { listenOnEngine, WAKE_CHANNEL } from './engine-listener.js';
import { createReassembler, notifyPayloads } from './topic-notify.js';

export interface PgBossQueueOptions {
  /** DATABASE_URL: pg-boss keeps its tables in the schema `schema` of this database. */
  url: string;
  logger: Logger;
  /** Default `pgboss`. */
  schema?: string;
  /** How often an idle worker looks for jobs no notification announced; default 2000 ms. */
  pollMs?: number;
}

/** A dead worker's job comes back this many times at most, then fails (a job that kills every worker). */
const GIVE_BACK_LIMIT = 10;

const STATES: Record<string, JobState> = {
  created: 'queued', retry: 'queued', active: 'active', completed: 'completed', cancelled: 'cancelled', failed: 'failed',
};

/**
 * pg-boss 10 on the service's PostgreSQL: jobs are rows (SKIP LOCKED fetches), a NOTIFY on every enqueue wakes idle
 * workers in every process at once, leases are renewed while a job is held (pg-boss-worker.ts). Topic messages are
 * NOTIFY payloads too (topic-notify.ts), on one LISTEN connection per process.
 */
export async function createPgBossQueue(options: PgBossQueueOptions): Promise<JobQueue> {
  const schema = options.schema ?? 'pgboss';
  if (!/^[a-z_][a-z0-9_]{0,49}$/.test(schema)) throw new TypeError(`pg-boss schema "${schema}" must be a lower-case PostgreSQL name`);
  const logger = options.logger;
  // A database that cannot be reached, or stops answering, fails a call within 10 to 15 s instead of holding it.
  const pool = new pg.Pool({
    connectionString: options.url, max: 6, application_name: 'taskloom-queue', connectionTimeoutMillis: 10_000,
    query_timeout: 15_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000, idleTimeoutMillis: 10_000,
  });
  pool.on('error', (error) => logger.warn({ err: error }, 'a queue connection failed'));
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) }, schema, schedule: false, supervise: true, migrate: true,
  });
  boss.on('error', (error) => logger.warn({ err: error }, 'pg-boss reported an error'));
  try {
    await boss.start();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }

  const workers = new Map<string, Set<PgBossWorker>>();
  const known = new Set<string>();
  const ensureQueue = async (queue: string) => {
    for (let attempt = 1; !known.has(queue); attempt += 1) {
      try {
        if (!(await boss.getQueue(queue))) await boss.createQueue(queue, { name: queue, policy: 'standard', retryLimit: GIVE_BACK_LIMIT, retryDelay: 0, expireInSeconds: DEFAULT_LEASE_MS / 1000 });
        known.add(queue);
      } catch (error) {
        // Processes creating the same queue at once can deadlock in pg-boss's create_queue: one wins, the others look again.
        if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  };
  const wakeLocal = (queue: string) => { for (const worker of workers.get(queue) ?? []) worker.wake(); };
  const announce = async (queue: string) => { await pool.query('SELECT pg_notify($1, $2)', [WAKE_CHANNEL, queue]); };
  // Topic messages share the LISTEN connection on a channel of their own (per schema: deployments stay apart).
  const topicChannel = `${schema}_topics`;
  const listeners = createTopicListeners();
  const reassemble = createReassembler((topic, json) => listeners.deliver(topic, json));
  const listener = listenOnEngine(options.url, [WAKE_CHANNEL, topicChannel], logger, (channel, payload) => {
    if (channel === WAKE_CHANNEL) wakeLocal(payload);
    else reassemble(payload);
  });
  await listener.ready;
  // One message at a time: from one process they arrive in the order published.
  let publishing: Promise<unknown> = Promise.resolve();

  /** Sends within `client`'s transaction after checking no job of `key` is queued or active (one at a time per key). */
  async function sendOnce(client: pg.PoolClient, queue: string, data: StoredJob, key: string, id: string, later: { startAfter?: number }): Promise<string | null> {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${schema}:${queue}:${key}`]);
    const { rows } = await client.query(
      `SELECT 1 FROM ${schema}.job WHERE name = $1 AND singleton_key = $2 AND state <= 'active' LIMIT 1`, [queue, key]);
    if (rows.length > 0) return null;
    const db = { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
    return boss.send(queue, data as unknown as object, { id, singletonKey: key, db, ...later });
  }

  let stopping: Promise<void> | undefined;
  return {
    id: 'pg-boss',
    capabilities: { durable: true, delay: true },

    async enqueue<P>(queue: string, payload: P, enqueueOptions: EnqueueOptions = {}) {
      checkEnqueue(queue, enqueueOptions);
      await ensureQueue(queue);
      const id = enqueueOptions.id ?? crypto.randomUUID();
      const data: StoredJob = { id, payload: payload === undefined ? null : payload };
      // Seconds from the database's now() (pg-boss casts a number to an interval): no host clock involved.
      const later = enqueueOptions.delayMs ? { startAfter: enqueueOptions.delayMs / 1000 } : {};
      let sent: string | null;
      if (enqueueOptions.key === undefined) {
        sent = await boss.send(queue, data as unknown as object, { id: engineId(queue, id), ...later });
      } else {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          sent = await sendOnce(client, queue, data, enqueueOptions.key, engineId(queue, id), later);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      }
      if (sent === null) return null;
      wakeLocal(queue);
      await announce(queue);
      return id;
    },

    async work<P>(queue: string, workerOptions: WorkerOptions, handler: JobHandler<P>) {
      const settings = workerSettings(queue, workerOptions);
      await ensureQueue(queue);
      const set = workers.get(queue) ?? new Set();
      workers.set(queue, set);
      const worker = startPgBossWorker(
        { boss, pool, schema, queue, logger, pollMs: options.pollMs ?? 2000, announce }, settings, handler as JobHandler);
      set.add(worker);
      const stop = worker.stop.bind(worker);
      return Object.assign(worker, { stop: () => stop().finally(() => set.delete(worker)) });
    },

    async cancel(queue, jobId) {
      checkQueueName(queue);
      const { rowCount } = await pool.query(
        `UPDATE ${schema}.job SET state = 'cancelled', completed_on = now() WHERE name = $1 AND id = $2 AND state < 'active'`,
        [queue, engineId(queue, jobId)]);
      return rowCount === 1;
    },

    async state(queue, jobId) {
      checkQueueName(queue);
      if (!known.has(queue) && !(await boss.getQueue(queue))) return undefined;
      const job = await boss.getJobById(queue, engineId(queue, jobId), { includeArchive: true });
      return job ? STATES[job.state] : undefined;
    },

    async publish(topic, message) {
      const payloads = notifyPayloads(topic, encodeMessage(topic, message));
      const sent = publishing.catch(() => undefined).then(() => pool.query(
        'SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t(p, i) ORDER BY i', [topicChannel, payloads]));
      publishing = sent;
      await sent;
    },

    async subscribe(topic, listen) {
      checkQueueName(topic);
      await listener.ready;
      listeners.add(topic, listen);
      return async () => { listeners.remove(topic, listen); };
    },

    stop() {
      stopping ??= (async () => {
        listeners.clear();
        await Promise.all([...workers.values()].flatMap((set) => [...set].map((worker) => worker.stop())));
        await listener.stop();
        await boss.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
        await pool.end().catch(() => undefined);
      })();
      return stopping;
    },
  };
}
