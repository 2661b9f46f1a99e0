import pg from 'pg';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { Errors, TaskloomError } from '../../../kernel/errors.js';
import { answerWithin } from '../shared/answer-within.js';
import { ClosingGate } from '../shared/closing-gate.js';
import { fillDefaultUser } from './default-user.js';
import { describeTarget, scrub, scrubError } from './redact.js';

/** What both a pool and a checked-out client can do. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

export interface DatabaseOptions {
  url: string;
  /** Tables live in this schema (created when missing); default: the server's search_path. */
  schema?: string;
  logger: Logger;
  poolSize?: number;
  connectTimeoutMs?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** Socket errors and SQLSTATEs that mean "cannot reach or log in to the server", not "bad query". */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '28000', '28P01', '3D000']);
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|connection error|Cannot use a pool after calling end/i;

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  return error instanceof Error && DRIVER_MESSAGES.test(error.message);
}

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
 */
export class Database {
  readonly target: string;
  private readonly pool: pg.Pool;
  private readonly calls: ClosingGate;

  constructor(private readonly options: DatabaseOptions) {
    const { url, schema } = options;
    if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
      throw new TypeError(`postgres: schema must be a lower-case SQL name (letters, digits, _), got ${JSON.stringify(schema)}`);
    }
    this.target = describeTarget(url);
    fillDefaultUser();
    this.calls = new ClosingGate(`the postgres store at ${this.target}`, (error) => this.translate(error));
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      application_name: 'taskloom',
      ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
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

  /** Runs `work` unless closed; close() waits for it to settle. */
  run<R>(work: (pool: pg.Pool) => Promise<R>): Promise<R> {
    return this.calls.run(() => work(this.pool));
  }

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    return this.run((pool) => pool.query<R>(text, params));
  }

  /** Runs `work` inside BEGIN ... COMMIT on one connection; any error rolls back and is rethrown as is. */
  transaction<R>(work: (client: Queryable) => Promise<R>): Promise<R> {
    return this.run(async (pool) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    });
  }

  /** Resolves when `SELECT 1` answers within `timeoutMs`. */
  check(timeoutMs: number): Promise<void> {
    const late = `PostgreSQL at ${this.target} did not answer SELECT 1 within ${timeoutMs} ms: check the server and the network`;
    return answerWithin(() => this.query('SELECT 1'), timeoutMs, late);
  }

  close(): Promise<void> {
    return this.calls.close(() => this.pool.end());
  }

  /** Connection failures become STORAGE_UNAVAILABLE; every other error (bad SQL, a throwing `change`) passes unchanged. */
  translate(error: unknown): unknown {
    if (error instanceof TaskloomError || !isConnectionError(error)) return error;
    const detail = scrub(messageOf(error), this.options.url);
    const reason = `no connection to PostgreSQL at ${this.target} (${detail}): check DATABASE_URL and that the server is running`;
    return Errors.STORAGE_UNAVAILABLE({ reason }, { cause: scrubError(error, this.options.url), retryable: true });
  }
}
