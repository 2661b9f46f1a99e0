import type { DeliveryQuery, DeliveryRecord, DeliveryStore } from '../../../kernel/contracts/deliveries.js';
import { matchesDelivery, pageDeliveries } from '../shared/delivery-query.js';
import { DocumentCollection } from './document-collection.js';
import type { StoreContext } from './store-context.js';

/** The webhook delivery log: a journalled collection held in memory, scanned without copying. */
export class JsonDeliveryStore extends DocumentCollection<DeliveryRecord> implements DeliveryStore {
  constructor(ctx: StoreContext) {
    super(ctx, 'deliveries');
  }

  async due(nowMs: number, limit: number): Promise<DeliveryRecord[]> {
    this.ctx.gate.assertOpen();
    const due = [...this.values()].filter((record) => record.status === 'pending' && record.nextAttemptMs <= nowMs)
      .sort((a, b) => a.nextAttemptMs - b.nextAttemptMs).slice(0, limit).map((record) => structuredClone(record));
    await this.settled(); // as every read: what it shows is durable
    return due;
  }

  async find(query: DeliveryQuery = {}): Promise<DeliveryRecord[]> {
    this.ctx.gate.assertOpen();
    const matching = [...this.values()].filter((record) => matchesDelivery(record, query));
    await this.settled();
    return pageDeliveries(matching, query).map((record) => structuredClone(record));
  }

  async deleteSettledBefore(cutoffIso: string): Promise<number> {
    const old = [...this.values()].filter((record) => record.status !== 'pending' && (record.settledAt ?? record.createdAt) < cutoffIso);
    let removed = 0;
    for (const record of old) if (await this.delete(record.id)) removed++;
    return removed;
  }
}
