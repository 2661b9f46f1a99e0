// A StorageProvider on one SQLite file (better-sqlite3, WAL mode).
import { createSessionStore, createUserStore } from './account-stores.js';
import { Connection } from './connection.js';
import { createCounterStore } from './counter-store.js';
import { createDeliveryStore } from './delivery-store.js';
import { createDocumentStore } from './document-store.js';
import { createExecutionStore } from './execution-store.js';
import { createClaimStore, createSettingsStore } from './settings-store.js';

/**
 * Opens (creating when missing) the database at `file` with its tables.
 * @param {{ file: string, busyTimeoutMs?: number }} options
 * @returns {Promise<import('taskloom/contracts').StorageProvider>}
 */
export async function openSqliteStorage({ file, busyTimeoutMs = 5000 }) {
  const connection = new Connection(file, { busyTimeoutMs });
  /** @type {ReturnType<typeof createDocumentStore<import('taskloom/contracts').TaskRecord>>} */
  const tasks = createDocumentStore(connection, 'tasks');
  /** @type {ReturnType<typeof createDocumentStore<import('taskloom/contracts').CredentialRecord>>} */
  const credentials = createDocumentStore(connection, 'credentials');
  return {
    kind: 'sqlite',
    users: createUserStore(connection),
    sessions: createSessionStore(connection),
    settings: createSettingsStore(connection),
    tasks,
    executions: createExecutionStore(connection),
    credentials,
    claims: createClaimStore(connection),
    counters: createCounterStore(connection),
    // Storage contract 2.4 and 2.5, optional: each task's healing state, and the webhook delivery log.
    healing: createDocumentStore(connection, 'healing'),
    // Storage contract 2.8, optional: named browser states (the service seals each state before it comes here).
    browserStates: createDocumentStore(connection, 'browser_states'),
    deliveries: createDeliveryStore(connection),
    // Storage contract 2.2, optional: the processes sharing the file share its host, and so SQLite's clock.
    async clock() {
      const { ms } = /** @type {{ ms: number }} */ (connection.db.prepare("SELECT (julianday('now') - 2440587.5) * 86400000.0 AS ms").get());
      return ms;
    },
    async check() {
      connection.db.prepare('SELECT 1').get();
    },
    async close() {
      connection.close();
    },
    async compact() {
      // secure_delete already zeroed old values in the database file; the WAL may still hold old pages.
      connection.db.pragma('wal_checkpoint(TRUNCATE)');
    },
  };
}
