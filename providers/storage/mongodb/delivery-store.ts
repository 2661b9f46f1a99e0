import type { Filter } from 'mongodb';
import type { DeliveryQuery, DeliveryRecord, DeliveryStore } from '../../../kernel/contracts/deliveries.js';
import type { MongoContext } from './context.js';
import { MongoDocuments } from './document-collection.js';
import type { Stored } from './stored.js';

/** The webhook delivery log, its queried fields copied beside each document (indexes.ts: `deliveries`). */
export class MongoDeliveryStore extends MongoDocuments<DeliveryRecord> implements DeliveryStore {
  constructor(ctx: MongoContext) {
    super(ctx, 'deliveries', (record) => ({
      status: record.status, nextAttemptMs: record.nextAttemptMs, endpointId: record.endpointId ?? null, event: record.event,
      createdAt: record.createdAt, settledAt: record.settledAt ?? record.createdAt,
    }));
  }

  due(nowMs: number, limit: number): Promise<DeliveryRecord[]> {
    return this.ctx.gate.run(async () => {
      const rows = await this.collection.find({ status: 'pending', nextAttemptMs: { $lte: nowMs } }, { projection: { json: 1 } })
        .sort({ nextAttemptMs: 1, seq: 1 }).limit(limit).toArray();
      return rows.map((row) => JSON.parse(row.json) as DeliveryRecord);
    });
  }

  find(query: DeliveryQuery = {}): Promise<DeliveryRecord[]> {
    return this.ctx.gate.run(async () => {
      const filter: Filter<Stored> = {};
      if (query.endpointId !== undefined) filter.endpointId = query.endpointId;
      if (query.event !== undefined) filter.event = query.event;
      if (query.status !== undefined) filter.status = query.status;
      let cursor = this.collection.find(filter, { projection: { json: 1 } }).sort({ createdAt: -1, seq: -1 }).skip(query.offset ?? 0);
      if (query.limit !== undefined) cursor = cursor.limit(query.limit);
      return (await cursor.toArray()).map((row) => JSON.parse(row.json) as DeliveryRecord);
    });
  }

  deleteSettledBefore(cutoffIso: string): Promise<number> {
    return this.ctx.gate.run(async () =>
      (await this.collection.deleteMany({ status: { $ne: 'pending' }, settledAt: { $lt: cutoffIso } })).deletedCount);
  }
}
