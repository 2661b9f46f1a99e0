/**
 * The schema, as numbered steps. A step, once released, never changes: a later change is a new
 * step. Each runs once per schema, inside the start-up transaction (see migrate.ts).
 *
 * Documents are stored as `json` (the exact text written), not `jsonb`: jsonb reorders keys,
 * normalises numbers and refuses "\u0000", and the contract wants back exactly what was put.
 * The columns next to `doc` are copies of document fields, kept for indexes and queries;
 * `seq` keeps insertion order.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'documents, settings and claims',
    sql: `
      -- email_lower is the email lower-cased by JavaScript, as the other stores compare it (the
      -- server's lower() depends on the database's locale).
      CREATE TABLE users (id text PRIMARY KEY, seq bigserial NOT NULL, email_lower text, doc json NOT NULL);
      CREATE UNIQUE INDEX users_email_lower_idx ON users (email_lower);
      CREATE INDEX users_seq_idx ON users (seq);

      CREATE TABLE sessions (id text PRIMARY KEY, seq bigserial NOT NULL, expires_at_ms double precision, doc json NOT NULL);
      CREATE INDEX sessions_seq_idx ON sessions (seq);
      CREATE INDEX sessions_expires_at_ms_idx ON sessions (expires_at_ms);

      CREATE TABLE tasks (
        id text PRIMARY KEY, seq bigserial NOT NULL,
        created_at timestamptz, updated_at timestamptz, doc json NOT NULL
      );
      CREATE INDEX tasks_seq_idx ON tasks (seq);

      CREATE TABLE credentials (id text PRIMARY KEY, seq bigserial NOT NULL, doc json NOT NULL);
      CREATE INDEX credentials_seq_idx ON credentials (seq);

      CREATE TABLE settings (key text PRIMARY KEY, value json NOT NULL);

      CREATE TABLE claims (key text PRIMARY KEY, owner text NOT NULL, expires_at timestamptz NOT NULL);
      CREATE INDEX claims_expires_at_idx ON claims (expires_at);
    `,
  },
  {
    version: 2,
    name: 'executions',
    sql: `
      CREATE TABLE executions (
        execution_id text PRIMARY KEY,
        seq bigserial NOT NULL,
        task_id text,
        status text,
        trigger text,
        started_at timestamptz NOT NULL,
        duration_ms double precision,
        summary json NOT NULL,
        doc json NOT NULL
      );
      -- History pages: newest first, ties broken by later insertion first.
      CREATE INDEX executions_started_at_idx ON executions (started_at DESC, seq DESC);
      CREATE INDEX executions_status_started_at_idx ON executions (status, started_at DESC, seq DESC);
      CREATE INDEX executions_task_started_at_idx ON executions (task_id, started_at DESC, seq DESC);
    `,
  },
  {
    version: 3,
    name: 'counters',
    sql: `
      -- Expiring counts shared by the instances (login limits): see counter-store.ts.
      CREATE TABLE counters (key text PRIMARY KEY, count integer NOT NULL, expires_at timestamptz NOT NULL);
      CREATE INDEX counters_expires_at_idx ON counters (expires_at);
    `,
  },
  {
    version: 4,
    name: 'healing',
    sql: `
      -- Each task's fingerprints and selector repairs (storage contract 2.4), keyed by task id.
      CREATE TABLE healing (id text PRIMARY KEY, seq bigserial NOT NULL, doc json NOT NULL);
      CREATE INDEX healing_seq_idx ON healing (seq);
    `,
  },
  // Migrations apply by number; gaps are allowed.
  {
    version: 5,
    name: 'webhook deliveries',
    sql: `
      CREATE TABLE deliveries (
        id text PRIMARY KEY,
        seq bigserial NOT NULL,
        status text NOT NULL,
        next_attempt_ms bigint NOT NULL,
        endpoint_id text,
        event text NOT NULL,
        created_at timestamptz,
        settled_at timestamptz,
        doc json NOT NULL
      );
      -- The senders' look-up of due deliveries, and the log's pages newest first.
      CREATE INDEX deliveries_due_idx ON deliveries (next_attempt_ms) WHERE status = 'pending';
      CREATE INDEX deliveries_created_at_idx ON deliveries (created_at DESC, seq DESC);
    `,
  },
  {
    version: 6,
    name: 'browser states',
    sql: `
      -- Named browser states (storage contract 2.8), keyed by name; each doc's state is sealed by the service.
      CREATE TABLE browser_states (id text PRIMARY KEY, seq bigserial NOT NULL, doc json NOT NULL);
      CREATE INDEX browser_states_seq_idx ON browser_states (seq);
    `,
  },
];
