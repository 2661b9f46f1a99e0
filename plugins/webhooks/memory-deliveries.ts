import type { DeliveryQuery, DeliveryRecord, DeliveryStore } from '../../kernel/contracts/deliveries.js';

/** The delivery log in this process only: for a storage provider without one (contract before 2.5). */
export function memoryDeliveries(): DeliveryStore {
  const records = new Map<string, DeliveryRecord>();
  const copy = <T>(value: T): T => structuredClone(value);
  const matches = (r: DeliveryRecord, q: DeliveryQuery) =>
    (q.endpointId === undefined || r.endpointId === q.endpointId) && (q.event === undefined || r.event === q.event) && (q.status === undefined || r.status === q.status);
  return {
    get: async (id) => copy(records.get(id)),
    put: async (record) => (records.set(record.id, copy(record)), copy(record)),
    async update(id, change) {
      const current = records.get(id);
      if (!current) return undefined;
      const next = change(copy(current));
      if (next) records.set(id, copy(next));
      return copy(next ?? current);
    },
    due: async (nowMs, limit) => [...records.values()].filter((r) => r.status === 'pending' && r.nextAttemptMs <= nowMs)
      .sort((a, b) => a.nextAttemptMs - b.nextAttemptMs).slice(0, limit).map(copy),
    async find(query = {}) {
      const found = [...records.values()].filter((r) => matches(r, query)).reverse()
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
      const offset = query.offset ?? 0;
      return found.slice(offset, query.limit === undefined ? undefined : offset + query.limit).map(copy);
    },
    async deleteSettledBefore(cutoffIso) {
      let removed = 0;
      for (const r of [...records.values()]) if (r.status !== 'pending' && (r.settledAt ?? r.createdAt) < cutoffIso && records.delete(r.id)) removed++;
      return removed;
    },
  };
}
