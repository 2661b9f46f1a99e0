import pg from 'pg';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { Errors, TaskloomError } from '../../../kernel/errors.js';
import { answerWithin } from '../shared/answer-within.js';
import { ClosingGate } from '../shared/closing-gate.js';
import { fillDefaultUser } from './default-user.js';
import { HealthProbe } from './health-probe.js';
import { POOL_DEFAULTS, poolConfig, type PoolTimeouts } from './pool-options.js';
import { describeTarget, scrub, scrubError } from './redact.js';

/** What both a pool and a checked-out client can do. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

export interface DatabaseOptions extends PoolTimeouts {
  url: string;
  /** Tables live in this schema (created when missing); default: the server's search_path. */
  schema?: string;
  logger: Logger;
  poolSize?: number;
  /** How long check() waits for `SELECT 1`, and for its connection, in ms. Default 3000. */
  checkTimeoutMs?: number;
}

/** Per transaction: statements may run this long (ms) instead of the pool's limits (migrations). */
export interface TransactionOptions {
  timeoutMs?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** Socket errors and SQLSTATEs that mean "cannot reach or log in to the server", not "bad query". */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '28000', '28P01', '3D000']);
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|connection error|Cannot use a pool after calling end|Query read timeout/i;
/** The server cancelled a statement at statement_timeout: it answers, but too slowly to use. */
const STATEMENT_TIMEOUT = '57014';

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  return error instanceof Error && DRIVER_MESSAGES.test(error.message);
}

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** Node reports a refused dual-stack connect as an AggregateError with an empty message. */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message) return error.message;
  const first = (error as { errors?: unknown[] }).errors?.[0];
  return first instanceof Error && first.message ? first.message : String((error as { code?: unknown }).code ?? error.name);
}

/**
 * The pool, plus the bookkeeping the contract asks for: calls after close() reject, and close()
 * waits for the calls already started. Connection failures become STORAGE_UNAVAILABLE with a
 * reason that names the server but never the password.
 *
 * A peer that stops answering (sockets open, no bytes) must not hold the pool: every query has a
 * client-side time limit (pool-options.ts), a connection that failed or timed out is destroyed rather
 * than returned, and the connections opened before such a failure are suspect too (they went through
 * the same path): each is dropped when next taken from the pool instead of being tried. The health
 * check has a connection of its own (health-probe.ts), so it answers from the server, not the queue.
 */
export class Database {
  readonly target: string;
  private readonly pool: pg.Pool;
  private readonly probe: HealthProbe;
  private readonly calls: ClosingGate;
  /** Bumped when a connection fails mid-query; a connection opened in an earlier generation is not reused. */
  private generation = 0;
  private readonly bornIn = new WeakMap<pg.PoolClient, number>();

  constructor(private readonly options: DatabaseOptions) {
    const { url, schema } = options;
    if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
      throw new TypeError(`postgres: schema must be a lower-case SQL name (letters, digits, _), got ${JSON.stringify(schema)}`);
    }
    this.target = describeTarget(url);
    fillDefaultUser();
    this.calls = new ClosingGate(`the postgres store at ${this.target}`, (error) => this.translate(error));
    const config = poolConfig(url, options.poolSize, options, schema);
    this.pool = new pg.Pool(config);
    const checkMs = options.checkTimeoutMs ?? POOL_DEFAULTS.checkTimeoutMs;
    this.probe = new HealthProbe({ ...config, connectionTimeoutMillis: Math.min(checkMs, config.connectionTimeoutMillis ?? checkMs) }, (error) => {
      if (isConnectionError(error)) this.generation++;
    });
    this.pool.on('connect', (client) => {
      this.bornIn.set(client, this.generation);
      // A checked-out client whose socket fails between queries must not crash the process either.
      client.on('error', () => undefined);
    });
    // An idle connection that dies (server restart, network cut) must not crash the process.
    this.pool.on('error', (error) => {
      options.logger.warn({ err: scrubError(error, url), target: this.target }, 'an idle PostgreSQL connection failed; the pool opens a new one when needed');
    });
  }

  get schema(): string | undefined {
    return this.options.schema;
  }

  get isClosed(): boolean {
    return this.calls.isClosed;
  }

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    return this.calls.run(() => this.withClient((client) => client.query<R>(text, params)));
  }

  /** Runs `work` inside BEGIN ... COMMIT on one connection; any error rolls back and is rethrown as is. */
  transaction<R>(work: (client: Queryable) => Promise<R>, options: TransactionOptions = {}): Promise<R> {
    return this.calls.run(async () => {
      const client = await this.fresh();
      try {
        await client.query('BEGIN');
        const queryable = options.timeoutMs === undefined ? client : await this.unbounded(client, options.timeoutMs);
        const result = await work(queryable);
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (error) {
        // A connection that failed gets no ROLLBACK (it would wait for the same silent peer): destroying it rolls back.
        const broken = isConnectionError(error) ? error : await client.query('ROLLBACK').then(() => undefined, (failed: unknown) => failed);
        if (broken === undefined) client.release();
        else this.discard(client, broken);
        throw error;
      }
    });
  }

  /** Resolves when `SELECT 1` answers within checkTimeoutMs, on the health check's own connection. */
  check(): Promise<void> {
    const timeoutMs = this.options.checkTimeoutMs ?? POOL_DEFAULTS.checkTimeoutMs;
    const late = `PostgreSQL at ${this.target} did not answer SELECT 1 within ${timeoutMs} ms: check the server and the network`;
    return answerWithin(() => this.calls.run(() => this.probe.run(timeoutMs)), timeoutMs, late);
  }

  close(): Promise<void> {
    return this.calls.close(async () => {
      await Promise.all([this.pool.end(), this.probe.end()]);
    });
  }

  /** Connection failures become STORAGE_UNAVAILABLE; every other error (bad SQL, a throwing `change`) passes unchanged. */
  translate(error: unknown): unknown {
    if (error instanceof TaskloomError) return error;
    const detail = () => scrub(messageOf(error), this.options.url);
    if (codeOf(error) === STATEMENT_TIMEOUT) {
      const reason = `PostgreSQL at ${this.target} cancelled a statement at its time limit (${detail()}): the server is overloaded or a lock is held`;
      return Errors.STORAGE_UNAVAILABLE({ reason }, { cause: scrubError(error, this.options.url), retryable: true });
    }
    if (!isConnectionError(error)) return error;
    const reason = `no connection to PostgreSQL at ${this.target} (${detail()}): check DATABASE_URL and that the server is running`;
    return Errors.STORAGE_UNAVAILABLE({ reason }, { cause: scrubError(error, this.options.url), retryable: true });
  }

  /**
   * Takes a connection, runs `work` on it and gives it back, or destroys it when the work failed on the
   * connection itself (a read timeout, a dropped socket): such a connection may still have a query under way.
   */
  private async withClient<R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    const client = await this.fresh();
    try {
      const result = await work(client);
      client.release();
      return result;
    } catch (error) {
      if (isConnectionError(error)) this.discard(client, error);
      else client.release();
      throw error;
    }
  }

  /** A pooled connection opened since the last failure; older ones are dropped unused (bounded: new ones are current). */
  private async fresh(): Promise<pg.PoolClient> {
    for (let tries = 0; ; tries++) {
      const client = await this.pool.connect();
      if ((this.bornIn.get(client) ?? this.generation) >= this.generation || tries > (this.options.poolSize ?? POOL_DEFAULTS.poolSize)) return client;
      this.drop(client, new Error('opened before a PostgreSQL connection stopped answering'));
    }
  }

  private discard(client: pg.PoolClient, error: unknown): void {
    this.generation++;
    this.options.logger.warn({ err: scrubError(error, this.options.url), target: this.target }, 'a PostgreSQL connection failed or stopped answering: closing it, and replacing the older ones as they are next used');
    this.drop(client, error instanceof Error ? error : new Error(String(error)));
  }

  /** Out of the pool, socket closed at once: a graceful goodbye would wait on a peer that may never answer. */
  private drop(client: pg.PoolClient, reason: Error): void {
    client.release(reason);
    client.connection?.stream?.destroy();
  }

  /** Lifts the time limits for the statements of one transaction (migrations). */
  private async unbounded(client: pg.PoolClient, timeoutMs: number): Promise<Queryable> {
    await client.query(`SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}`);
    const slow = (config: string | pg.QueryConfig, values?: unknown[]) => {
      const text = typeof config === 'string' ? { text: config, values } : config;
      return client.query({ ...text, query_timeout: timeoutMs + POOL_DEFAULTS.connectTimeoutMs } as pg.QueryConfig);
    };
    return { query: slow as Queryable['query'] };
  }
}
