// Named JSON values, and once-only claims: both small key tables.

/**
 * @param {import('./connection.js').Connection} connection
 * @returns {import('taskloom/contracts').SettingsStore}
 */
export function createSettingsStore(connection) {
  /** @param {string} key */
  const read = (key) => {
    const row = /** @type {{ value: string } | undefined} */ (connection.db.prepare('SELECT value FROM settings WHERE key = ?').get(key));
    return row ? JSON.parse(row.value) : undefined;
  };
  /** @param {string} key  @param {unknown} value */
  const write = (key, value) => {
    connection.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, JSON.stringify(value ?? null));
  };
  return {
    async get(key) {
      return read(key);
    },
    async set(key, value) {
      write(key, value);
    },
    async update(key, change) {
      return connection.write(() => {
        const next = change(read(key));
        write(key, next);
        return JSON.parse(JSON.stringify(next ?? null));
      });
    },
    async delete(key) {
      return connection.db.prepare('DELETE FROM settings WHERE key = ?').run(key).changes > 0;
    },
    async keys() {
      return connection.db.prepare('SELECT key FROM settings').all().map((row) => /** @type {{ key: string }} */ (row).key);
    },
  };
}

/**
 * @param {import('./connection.js').Connection} connection
 * @returns {import('taskloom/contracts').ClaimStore}
 */
export function createClaimStore(connection) {
  return {
    async claim(key, owner, ttlMs) {
      return connection.write(() => {
        const now = Date.now();
        connection.db.prepare('DELETE FROM claims WHERE key = ? AND expires_at_ms <= ?').run(key, now);
        return connection.db.prepare('INSERT INTO claims (key, owner, expires_at_ms) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING')
          .run(key, owner, now + ttlMs).changes === 1;
      });
    },
  };
}
