// Expiring counts (storage contract 2.1, optional): the login limits count failures here. Each add is one write
// transaction on the file, so processes sharing it count together.

/**
 * @param {number} delta  @param {{ windowMs: number, limit?: number }} options
 */
function checkArgs(delta, options) {
  if (!Number.isSafeInteger(delta)) throw new TypeError(`counters: delta must be an integer, got ${delta}`);
  if (!Number.isFinite(options.windowMs) || options.windowMs <= 0) {
    throw new TypeError(`counters: windowMs must be a positive number of milliseconds, got ${options.windowMs}`);
  }
  if (options.limit !== undefined && !Number.isFinite(options.limit)) throw new TypeError(`counters: limit must be a number, got ${options.limit}`);
}

/**
 * @param {import('./connection.js').Connection} connection
 * @returns {import('taskloom/contracts').CounterStore}
 */
export function createCounterStore(connection) {
  return {
    async add(key, delta, options) {
      checkArgs(delta, options);
      return connection.write(() => {
        const now = Date.now();
        const row = /** @type {{ count: number, expires_at_ms: number } | undefined} */ (
          connection.db.prepare('SELECT count, expires_at_ms FROM counters WHERE key = ? AND expires_at_ms > ?').get(key, now));
        const count = row?.count ?? 0;
        const expiresAtMs = row?.expires_at_ms ?? now + options.windowMs;
        const next = Math.max(0, count + delta);
        /** @param {boolean} added  @param {number} value */
        const state = (added, value) => ({ added, count: value, resetInMs: row || (added && delta > 0) ? expiresAtMs - now : 0 });
        if (options.limit !== undefined && delta > 0 && next > options.limit) return state(false, count);
        if (!row && delta <= 0) {
          connection.db.prepare('DELETE FROM counters WHERE key = ?').run(key);
          return state(true, 0);
        }
        connection.db.prepare('INSERT INTO counters (key, count, expires_at_ms) VALUES (?, ?, ?) ' +
          'ON CONFLICT (key) DO UPDATE SET count = excluded.count, expires_at_ms = excluded.expires_at_ms').run(key, next, expiresAtMs);
        // Expired counts go with the writes, so the table does not grow forever.
        connection.db.prepare('DELETE FROM counters WHERE expires_at_ms <= ?').run(now);
        return state(true, next);
      });
    },
    async reset(key) {
      const row = connection.db.prepare('DELETE FROM counters WHERE key = ? RETURNING expires_at_ms').get(key);
      return row !== undefined && /** @type {{ expires_at_ms: number }} */ (row).expires_at_ms > Date.now();
    },
  };
}
