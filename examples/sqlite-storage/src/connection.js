// The one database connection every store shares, and the rule that a closed storage refuses every call.
import Database from 'better-sqlite3';

/** Document stores: one table each, rows in insertion order (`seq`), with the columns their lookups need. */
export const DOCUMENT_TABLES = {
  users: 'email_lower TEXT',
  sessions: 'expires_at_ms INTEGER',
  tasks: '',
  credentials: '',
  healing: '',
  browser_states: '',
  deliveries: 'status TEXT, next_attempt_ms INTEGER, created_at TEXT, settled_at TEXT',
};

function schema() {
  const documents = Object.entries(DOCUMENT_TABLES).map(([table, extra]) => `
    CREATE TABLE IF NOT EXISTS ${table} (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      body TEXT NOT NULL${extra ? `,\n      ${extra}` : ''}
    );`);
  return `${documents.join('\n')}
    CREATE INDEX IF NOT EXISTS users_email ON users (email_lower);
    CREATE INDEX IF NOT EXISTS sessions_expiry ON sessions (expires_at_ms);
    CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, next_attempt_ms);
    CREATE INDEX IF NOT EXISTS deliveries_created ON deliveries (created_at, seq);
    CREATE TABLE IF NOT EXISTS revisions (store TEXT PRIMARY KEY, value INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at_ms INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS executions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      execution_id TEXT NOT NULL UNIQUE,
      task_id TEXT,
      status TEXT,
      instance_id TEXT,
      started_ms INTEGER NOT NULL,
      body TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS executions_started ON executions (started_ms, seq);
    CREATE INDEX IF NOT EXISTS executions_task ON executions (task_id, started_ms, seq);
    CREATE INDEX IF NOT EXISTS executions_status ON executions (status, instance_id);`;
}

export class Connection {
  /** @param {string} file  @param {{ busyTimeoutMs: number }} options */
  constructor(file, options) {
    this.file = file;
    /** @type {import('better-sqlite3').Database | undefined} */
    this.handle = new Database(file, { timeout: options.busyTimeoutMs });
    // WAL: readers never wait for the writer; FULL: a commit is on disk (WAL fsynced) before the call resolves.
    this.handle.pragma('journal_mode = WAL');
    this.handle.pragma('synchronous = FULL');
    // Deleted and overwritten values are zeroed in the file, so compact() can leave no old secret behind.
    this.handle.pragma('secure_delete = ON');
    this.handle.exec(schema());
  }

  /** The open database; throws once the storage is closed. */
  get db() {
    if (!this.handle) throw new Error(`sqlite storage ${this.file} is closed`);
    return this.handle;
  }

  /**
   * Runs `work` as one write transaction (BEGIN IMMEDIATE: other processes on the file wait for it), so a
   * read-change-write is atomic; an error thrown inside rolls everything back and is rethrown as it is.
   * @template T  @param {() => T} work  @returns {T}
   */
  write(work) {
    return this.db.transaction(work).immediate();
  }

  /** Counts a change of `store` (its revision), inside the write that made it. @param {string} store */
  bump(store) {
    this.db.prepare('INSERT INTO revisions (store, value) VALUES (?, 1) ON CONFLICT (store) DO UPDATE SET value = value + 1').run(store);
  }

  close() {
    if (!this.handle) return;
    this.handle.pragma('wal_checkpoint(TRUNCATE)');
    this.handle.close();
    this.handle = undefined;
  }
}
