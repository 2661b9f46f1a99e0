import type pg from 'pg';

/** The time limits of the PostgreSQL pool, in ms. Parameters of the same name in DATABASE_URL win over them. */
export interface PoolTimeouts {
  /** Opening a connection, or waiting for a free one (pg `connectionTimeoutMillis`). Default 5000. */
  connectTimeoutMs?: number;
  /**
   * Client side: a query whose answer does not arrive within this fails, and its connection is destroyed
   * (pg `query_timeout`). It is what ends a wait on a peer that stopped answering. Default 15000.
   */
  queryTimeoutMs?: number;
  /** Server side: the server cancels a statement running longer (`statement_timeout`). Default 10000. */
  statementTimeoutMs?: number;
}

export const POOL_DEFAULTS = {
  poolSize: 10,
  connectTimeoutMs: 5_000,
  queryTimeoutMs: 15_000,
  statementTimeoutMs: 10_000,
  /** The health check's `SELECT 1` (on a connection of its own). */
  checkTimeoutMs: 3_000,
  /** A transaction whose client went silent holds its row locks until the server ends its session. */
  idleInTransactionMs: 30_000,
  /** An idle connection is closed after this: a dead one never lingers long in the pool. */
  idleMs: 10_000,
  /** TCP keep-alive probes start after this much silence, so the kernel notices a peer that vanished. */
  keepAliveDelayMs: 10_000,
  /** Migrations may build indexes on a large history: their statements get this instead. */
  migrationTimeoutMs: 600_000,
} as const;

/**
 * The pool's configuration: the time limits above, TCP keep-alive and idle closing. The server-side limits are
 * startup parameters, so they hold on every connection without an extra round trip.
 */
export function poolConfig(url: string, size: number | undefined, timeouts: PoolTimeouts, schema: string | undefined): pg.PoolConfig {
  return {
    connectionString: url,
    max: size ?? POOL_DEFAULTS.poolSize,
    connectionTimeoutMillis: timeouts.connectTimeoutMs ?? POOL_DEFAULTS.connectTimeoutMs,
    query_timeout: timeouts.queryTimeoutMs ?? POOL_DEFAULTS.queryTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs ?? POOL_DEFAULTS.statementTimeoutMs,
    idle_in_transaction_session_timeout: POOL_DEFAULTS.idleInTransactionMs,
    idleTimeoutMillis: POOL_DEFAULTS.idleMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: POOL_DEFAULTS.keepAliveDelayMs,
    application_name: 'taskloom',
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  };
}
