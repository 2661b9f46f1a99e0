import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { JobHandler, QueueWorker } from '../../../kernel/contracts/queue.js';
import { createLeaseWatch } from '../shared/lease-watch.js';
import type { StoredJob } from './job-ids.js';

export interface PgBossWorkerDeps {
  boss: PgBoss;
  pool: pg.Pool;
  /** pg-boss's schema, already checked as a PostgreSQL name. */
  schema: string;
  queue: string;
  logger: Logger;
  /** How often an idle worker looks for jobs a notification did not announce (given back, missed). */
  pollMs: number;
  /** After jobs were handed back: another process may take them now. */
  announce(queue: string): Promise<void>;
}

export interface PgBossWorker extends QueueWorker {
  /** Fetches as many jobs as it has free slots, now. */
  wake(): void;
}

const LOG_EVERY_MS = 30_000;

/**
 * A worker that fetches only what it can run (never a job it would hold without working it), renews the lease of
 * each held job (pg-boss 10 has no heartbeat: the job's `expire_in` is moved on, so it expires `leaseMs` after the
 * last renewal) and runs pg-boss's expiry often, so a dead worker's jobs come back within about a lease. A job
 * whose lease went unrenewed for half of it, or that is no longer held, has its handler's signal aborted.
 */
export function startPgBossWorker(deps: PgBossWorkerDeps, settings: { concurrency: number; leaseMs: number }, handler: JobHandler): PgBossWorker {
  const { boss, pool, schema, queue, logger } = deps;
  const { concurrency, leaseMs } = settings;
  const held = new Map<string, Promise<void>>();
  const leases = createLeaseWatch(leaseMs, (jobId, why) => logger.warn({ queue, jobId }, `a held job's lease is lost (${why}): its handler is told to stop`));
  let taking = true;
  let fetching = false;
  let again = false;
  let loggedAtMs = 0;

  const warn = (error: unknown, message: string) => {
    if (Date.now() - loggedAtMs < LOG_EVERY_MS) return;
    loggedAtMs = Date.now();
    logger.warn({ err: error, queue }, message);
  };

  const renew = async (ids: string[]) => {
    if (ids.length === 0) return;
    const sentAt = performance.now();
    const { rows } = await pool.query<{ id: string }>(
      `UPDATE ${schema}.job SET expire_in = (now() - started_on) + $3 * interval '1 millisecond'
       WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active' RETURNING id`,
      [queue, ids, leaseMs],
    );
    const renewed = new Set(rows.map((row) => row.id));
    leases.renewed(renewed, sentAt);
    for (const id of ids) if (!renewed.has(id)) leases.lose(id, 'no longer held: it expired and was given back, or was ended elsewhere');
  };

  const handBack = async (ids: string[]) => {
    if (ids.length === 0) return;
    // started_on cleared: the next fetch counts no extra attempt.
    await pool.query(`UPDATE ${schema}.job SET state = 'created', started_on = NULL WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`, [queue, ids]);
    await deps.announce(queue);
  };

  const settle = async (id: string, error: unknown) => {
    if (error === undefined) return boss.complete(queue, id);
    // A handler's failure is final: no retry (retries are for jobs whose worker died).
    await pool.query(`UPDATE ${schema}.job SET retry_limit = retry_count WHERE name = $1 AND id = $2`, [queue, id]);
    await boss.fail(queue, id, { message: error instanceof Error ? error.message : String(error) });
  };

  function run(job: PgBoss.JobWithMetadata<StoredJob>, fetchedAt: number): void {
    const signal = leases.hold(job.id, fetchedAt);
    const work = (async () => handler({ id: job.data.id, queue, payload: job.data.payload, attempt: job.retryCount + 1, signal }))()
      .then(() => settle(job.id, undefined), (error: unknown) => settle(job.id, error ?? new Error('failed')))
      .catch((error: unknown) => warn(error, 'recording a job\'s end failed: it is given back when its lease ends'))
      .finally(() => {
        held.delete(job.id);
        leases.release(job.id);
        wake();
      });
    held.set(job.id, work);
  }

  async function fetchFree(): Promise<void> {
    fetching = true;
    try {
      do {
        again = false;
        const free = concurrency - held.size;
        if (free <= 0 || !taking) break;
        const fetchedAt = performance.now();
        const jobs = await boss.fetch<StoredJob>(queue, { batchSize: free, includeMetadata: true });
        if (!taking) {
          await handBack(jobs.map((job) => job.id));
          break;
        }
        // The lease before the work: a worker dying right after the fetch gives the jobs back one lease later.
        await renew(jobs.map((job) => job.id)).catch((error: unknown) => warn(error, 'renewing job leases failed'));
        for (const job of jobs) run(job, fetchedAt);
        if (jobs.length === free) again = true;
      } while (again);
    } catch (error) {
      warn(error, 'fetching jobs failed; trying again at the next poll');
    } finally {
      fetching = false;
    }
  }

  function wake(): void {
    if (!taking) return;
    if (fetching) again = true;
    else void fetchFree();
  }

  const poll = setInterval(wake, deps.pollMs);
  const heartbeat = setInterval(() => {
    void renew([...held.keys()]).catch((error: unknown) => warn(error, 'renewing job leases failed'));
  }, Math.max(150, Math.floor(leaseMs / 6))); // a sixth: a slow renewal or two still lands before half the lease
  const expiry = setInterval(() => {
    void boss.expire().then(wake, (error: unknown) => warn(error, 'expiring the jobs of dead workers failed'));
  }, Math.max(500, Math.floor(leaseMs / 2)));
  wake();

  let stopping: Promise<void> | undefined;
  return {
    wake,
    get held() {
      return held.size;
    },
    stop() {
      stopping ??= (async () => {
        taking = false;
        clearInterval(poll);
        clearInterval(expiry);
        while (fetching || held.size > 0) {
          await Promise.allSettled([...held.values()]);
          if (fetching) await new Promise((resolve) => setTimeout(resolve, 10));
        }
        clearInterval(heartbeat);
        leases.stop();
      })();
      return stopping;
    },
  };
}
