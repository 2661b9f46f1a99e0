// The delivery log kept in memory, for a storage provider without one (contract before 2.5): the same answers as
// the stored log gives (due soonest first, newest first with filters, atomic updates, pruning).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveryRecord } from '../../kernel/contracts/deliveries.js';
import { memoryDeliveries } from '../../plugins/webhooks/memory-deliveries.js';

const at = (minutes: number) => new Date(Date.UTC(2024, 2, 1, 9, minutes)).toISOString();
const delivery = (id: string, overrides: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  id, kind: 'event', event: 'execution.succeeded', endpointId: 'ep_a', payload: '{}', status: 'pending', createdAt: at(0), nextAttemptMs: 1_000, attempts: [], ...overrides,
});

describe('the in-memory delivery log', () => {
  it('answers due, find, update and prune as the stored log does, with copies', async () => {
    const log = memoryDeliveries();
    await log.put(delivery('late', { nextAttemptMs: 5_000, createdAt: at(1) }));
    await log.put(delivery('soon', { nextAttemptMs: 2_000, createdAt: at(2), endpointId: 'ep_b' }));
    await log.put(delivery('done', { status: 'delivered', settledAt: at(3), createdAt: at(3) }));
    assert.deepEqual((await log.due(3_000, 10)).map((d) => d.id), ['soon']);
    assert.deepEqual((await log.find()).map((d) => d.id), ['done', 'soon', 'late']);
    assert.deepEqual((await log.find({ endpointId: 'ep_a', status: 'pending' })).map((d) => d.id), ['late']);
    assert.deepEqual((await log.find({ limit: 1, offset: 1 })).map((d) => d.id), ['soon']);
    const read = await log.get('late');
    read!.status = 'failed';
    assert.equal((await log.get('late'))!.status, 'pending', 'a copy: changing it changes nothing stored');
    const updated = await log.update('late', (d) => ({ ...d, attempts: [{ at: at(4), latencyMs: 3, statusCode: 500 }] }));
    assert.equal(updated!.attempts.length, 1);
    assert.equal(await log.update('missing', (d) => d), undefined);
    assert.equal(await log.deleteSettledBefore(at(5)), 1);
    assert.deepEqual((await log.find()).map((d) => d.id), ['soon', 'late']);
  });
});
