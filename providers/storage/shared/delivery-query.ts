import type { DeliveryQuery, DeliveryRecord } from '../../../kernel/contracts/deliveries.js';

/** Whether `record` matches the query's filters (its paging aside). */
export const matchesDelivery = (record: DeliveryRecord, query: DeliveryQuery): boolean =>
  (query.endpointId === undefined || record.endpointId === query.endpointId)
  && (query.event === undefined || record.event === query.event)
  && (query.status === undefined || record.status === query.status);

/** Newest `createdAt` first; `inOrder` is insertion order, so ties put later insertions first. */
export function pageDeliveries(inOrder: DeliveryRecord[], query: DeliveryQuery): DeliveryRecord[] {
  const newest = inOrder.map((record, seq) => ({ record, seq }))
    .sort((a, b) => (a.record.createdAt < b.record.createdAt ? 1 : a.record.createdAt > b.record.createdAt ? -1 : b.seq - a.seq))
    .map(({ record }) => record);
  const offset = query.offset ?? 0;
  return newest.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
}
