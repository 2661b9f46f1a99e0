// The users and sessions stores: document stores with the lookups their contract adds.
import { createDocumentStore } from './document-store.js';

/** @typedef {import('taskloom/contracts').UserRecord} UserRecord */
/** @typedef {import('taskloom/contracts').SessionRecord} SessionRecord */

/**
 * @param {import('./connection.js').Connection} connection
 * @returns {import('taskloom/contracts').UserStore}
 */
export function createUserStore(connection) {
  /** @type {ReturnType<typeof createDocumentStore<UserRecord>>} */
  const documents = createDocumentStore(connection, 'users', (user) => ({ email_lower: user.email.toLowerCase() }));
  return {
    get: documents.get,
    list: documents.list,
    put: documents.put,
    update: documents.update,
    delete: documents.delete,
    count: documents.count,
    revision: documents.revision,
    async findByEmail(email) {
      const row = /** @type {{ body: string } | undefined} */ (
        connection.db.prepare('SELECT body FROM users WHERE email_lower = ? ORDER BY seq LIMIT 1').get(email.toLowerCase())
      );
      return row ? JSON.parse(row.body) : undefined;
    },
    async insertFirst(user) {
      // One IMMEDIATE transaction: a second process (or call) waits, then sees the first user.
      return connection.write(() => {
        const { n } = /** @type {{ n: number }} */ (connection.db.prepare('SELECT count(*) AS n FROM users').get());
        if (n > 0) return false;
        connection.db.prepare('INSERT INTO users (id, body, email_lower) VALUES (?, ?, ?)').run(user.id, JSON.stringify(user), user.email.toLowerCase());
        connection.bump('users');
        return true;
      });
    },
  };
}

/**
 * @param {import('./connection.js').Connection} connection
 * @returns {import('taskloom/contracts').SessionStore}
 */
export function createSessionStore(connection) {
  /** @type {ReturnType<typeof createDocumentStore<SessionRecord>>} */
  const documents = createDocumentStore(connection, 'sessions', (session) => ({ expires_at_ms: session.expiresAtMs }));
  return {
    get: documents.get,
    list: documents.list,
    put: documents.put,
    update: documents.update,
    delete: documents.delete,
    count: documents.count,
    revision: documents.revision,
    async deleteExpired(nowMs) {
      return connection.write(() => {
        const { changes } = connection.db.prepare('DELETE FROM sessions WHERE expires_at_ms < ?').run(nowMs);
        if (changes > 0) connection.bump('sessions');
        return changes;
      });
    },
  };
}
