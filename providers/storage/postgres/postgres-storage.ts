import type { Logger } from '../../../kernel/contracts/logger.js';
import type { HealingDocument, StorageProvider } from '../../../kernel/contracts/storage.js';
import { Errors, TaskloomError } from '../../../kernel/errors.js';
import { PgClaimStore } from './claim-store.js';
import { PgCounterStore } from './counter-store.js';
import { Database } from './database.js';
import { PgDeliveryStore } from './delivery-store.js';
import { DocumentTable } from './document-table.js';
import { PgExecutionStore } from './execution-store.js';
import { timestampOf } from './json-doc.js';
import { migrate } from './migrate.js';
import { scrub } from './redact.js';
import { PgSessionStore } from './session-store.js';
import { PgSettingsStore } from './settings-store.js';
import { PgUserStore } from './user-store.js';
import type { BrowserStateRecord, CredentialRecord, TaskRecord } from '../../../kernel/contracts/records.js';

export interface PostgresStorageOptions {
  /** A postgres:// URL (DATABASE_URL). Its password never appears in a log line or an error. */
  url: string;
  /** Keep the tables in this schema (created when missing) instead of the server's search_path. */
  schema?: string;
  logger?: Logger;
  /** Connections in the pool. Default 10. */
  poolSize?: number;
  /** How long to wait for a new connection, or a free one, in ms. Default 5000. */
  connectTimeoutMs?: number;
  /** Client side: a query without an answer for this long fails and its connection is destroyed, in ms. Default 15000. */
  queryTimeoutMs?: number;
  /** Server side `statement_timeout`, in ms. Default 10000. */
  statementTimeoutMs?: number;
  /** How long check() waits for `SELECT 1`, in ms. Default 3000. */
  checkTimeoutMs?: number;
}

const silent: Logger = { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => silent };

export class PostgresStorage implements StorageProvider {
  readonly kind = 'postgres';
  readonly db: Database;
  readonly users: PgUserStore;
  readonly sessions: PgSessionStore;
  readonly settings: PgSettingsStore;
  readonly tasks: DocumentTable<TaskRecord>;
  readonly executions: PgExecutionStore;
  readonly credentials: DocumentTable<CredentialRecord>;
  readonly healing: DocumentTable<HealingDocument>;
  readonly browserStates: DocumentTable<BrowserStateRecord>;
  readonly claims: PgClaimStore;
  readonly counters: PgCounterStore;
  readonly deliveries: PgDeliveryStore;

  constructor(private readonly options: PostgresStorageOptions) {
    this.db = new Database({ ...options, logger: options.logger ?? silent });
    this.users = new PgUserStore(this.db);
    this.sessions = new PgSessionStore(this.db);
    this.settings = new PgSettingsStore(this.db);
    this.tasks = new DocumentTable<TaskRecord>(this.db, 'tasks', [
      { name: 'created_at', of: (task) => timestampOf(task.createdAt) },
      { name: 'updated_at', of: (task) => timestampOf(task.updatedAt) },
    ]);
    this.executions = new PgExecutionStore(this.db);
    this.credentials = new DocumentTable<CredentialRecord>(this.db, 'credentials');
    this.healing = new DocumentTable<HealingDocument>(this.db, 'healing');
    this.browserStates = new DocumentTable<BrowserStateRecord>(this.db, 'browser_states');
    this.claims = new PgClaimStore(this.db);
    this.counters = new PgCounterStore(this.db);
    this.deliveries = new PgDeliveryStore(this.db);
  }

  /** The server's clock (clock_timestamp(): the time now, not the transaction's start). */
  async clock(): Promise<number> {
    const { rows } = await this.db.query<{ ms: number }>('SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms');
    return Number(rows[0]!.ms);
  }

  check(): Promise<void> {
    return this.db.check();
  }

  /** Waits for the calls already started, then ends the pool. */
  close(): Promise<void> {
    return this.db.close();
  }
}

/** The provider without any I/O: nothing is checked until the first call. */
export function createPostgresStorage(options: PostgresStorageOptions): PostgresStorage {
  return new PostgresStorage(options);
}

/** Connects and brings the schema up to date (see migrate.ts); rejects with STORAGE_UNAVAILABLE and a reason otherwise. */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  const storage = createPostgresStorage(options);
  try {
    await migrate(storage.db, options.logger ?? silent);
  } catch (error) {
    await storage.close().catch(() => undefined);
    if (error instanceof TaskloomError) throw error;
    const detail = scrub(error instanceof Error ? error.message : String(error), options.url);
    throw Errors.STORAGE_UNAVAILABLE({ reason: `cannot prepare the schema on PostgreSQL at ${storage.db.target} (${detail})` });
  }
  return storage;
}
