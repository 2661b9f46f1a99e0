// The webhook delivery log (storage contract 2.5): a document table with the columns its look-ups need, so
// finding the due deliveries reads an index, not every record.
import { createDocumentStore } from './document-store.js';

/** @typedef {import('taskloom/contracts').DeliveryRecord} DeliveryRecord */

/**
 * @param {import('./connection.js').Connection} connection
 * @returns {import('taskloom/contracts').DeliveryStore}
 */
export function createDeliveryStore(connection) {
  /** @type {ReturnType<typeof createDocumentStore<DeliveryRecord>>} */
  const documents = createDocumentStore(connection, 'deliveries', (record) => ({
    status: record.status, next_attempt_ms: record.nextAttemptMs, created_at: record.createdAt, settled_at: record.settledAt ?? null,
  }));
  /** @param {unknown[]} rows  @returns {DeliveryRecord[]} */
  const parse = (rows) => rows.map((row) => JSON.parse(/** @type {{ body: string }} */ (row).body));
  return {
    get: (id) => documents.get(id),
    put: (record) => documents.put(record),
    update: (id, change) => documents.update(id, change),
    async due(nowMs, limit) {
      return parse(connection.db.prepare("SELECT body FROM deliveries WHERE status = 'pending' AND next_attempt_ms <= ? ORDER BY next_attempt_ms, seq LIMIT ?").all(nowMs, limit));
    },
    async find(query = {}) {
      /** @type {string[]} */
      const clauses = [];
      /** @type {string[]} */
      const values = [];
      if (query.status !== undefined) { clauses.push('status = ?'); values.push(query.status); }
      if (query.endpointId !== undefined) { clauses.push("json_extract(body, '$.endpointId') = ?"); values.push(query.endpointId); }
      if (query.event !== undefined) { clauses.push("json_extract(body, '$.event') = ?"); values.push(query.event); }
      const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
      const rows = connection.db.prepare(`SELECT body FROM deliveries ${where} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`)
        .all(...values, query.limit ?? -1, query.offset ?? 0);
      return parse(rows);
    },
    async deleteSettledBefore(cutoffIso) {
      return connection.write(() => connection.db
        .prepare("DELETE FROM deliveries WHERE status <> 'pending' AND COALESCE(settled_at, created_at) < ?").run(cutoffIso).changes);
    },
  };
}
