import type { DeliveryQuery, DeliveryRecord, DeliveryStore } from '../../../kernel/contracts/deliveries.js';
import type { Database } from './database.js';
import { DocumentTable } from './document-table.js';
import { timestampOf } from './json-doc.js';

/** The webhook delivery log: `deliveries` rows with the columns its queries filter and sort on (migration 5). */
export class PgDeliveryStore extends DocumentTable<DeliveryRecord> implements DeliveryStore {
  constructor(db: Database) {
    super(db, 'deliveries', [
      { name: 'status', of: (record) => record.status },
      { name: 'next_attempt_ms', of: (record) => record.nextAttemptMs },
      { name: 'endpoint_id', of: (record) => record.endpointId ?? null },
      { name: 'event', of: (record) => record.event },
      { name: 'created_at', of: (record) => timestampOf(record.createdAt) },
      { name: 'settled_at', of: (record) => (record.settledAt ? timestampOf(record.settledAt) : null) },
    ]);
  }

  async due(nowMs: number, limit: number): Promise<DeliveryRecord[]> {
    const { rows } = await this.db.query<{ doc: DeliveryRecord }>(
      `SELECT doc FROM deliveries WHERE status = 'pending' AND next_attempt_ms <= $1 ORDER BY next_attempt_ms, seq LIMIT $2`, [nowMs, limit]);
    return rows.map((row) => row.doc);
  }

  async find(query: DeliveryQuery = {}): Promise<DeliveryRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (column: string, value: unknown) => {
      params.push(value);
      where.push(`${column} = $${params.length}`);
    };
    if (query.endpointId !== undefined) add('endpoint_id', query.endpointId);
    if (query.event !== undefined) add('event', query.event);
    if (query.status !== undefined) add('status', query.status);
    params.push(query.limit ?? null, query.offset ?? 0);
    const { rows } = await this.db.query<{ doc: DeliveryRecord }>(
      `SELECT doc FROM deliveries ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, seq DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params);
    return rows.map((row) => row.doc);
  }

  async deleteSettledBefore(cutoffIso: string): Promise<number> {
    const cutoff = timestampOf(cutoffIso);
    const { rowCount } = await this.db.query(`DELETE FROM deliveries WHERE status <> 'pending' AND coalesce(settled_at, created_at) < $1`, [cutoff]);
    return rowCount ?? 0;
  }
}
