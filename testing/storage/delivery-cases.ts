import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveryRecord, DeliveryStore } from '../../kernel/contracts/deliveries.js';
import { at, type CurrentHarness } from './harness.js';

const delivery = (id: string, overrides: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  id, kind: 'event', event: 'execution.succeeded', endpointId: 'ep_a', payload: '{"type":"execution.succeeded"}',
  status: 'pending', createdAt: at(0), nextAttemptMs: 1_000, attempts: [], ...overrides,
});

/** StorageProvider.deliveries, optional in the contract (2.5): the webhook delivery log. */
export function deliveryCases(current: CurrentHarness): void {
  describe('deliveries (when the provider offers them)', () => {
    const deliveriesOrSkip = (t: { skip(reason: string): void }): DeliveryStore | undefined => {
      const { deliveries } = current().storage;
      if (!deliveries) t.skip('this provider offers no delivery log (optional in the contract: the webhooks plugin then keeps deliveries in memory)');
      return deliveries;
    };

    it('stores a delivery and its attempts durably, and updates it atomically', async (t) => {
      const deliveries = deliveriesOrSkip(t);
      if (!deliveries) return;
      await deliveries.put(delivery('msg_1'));
      const attempts = await Promise.all([1, 2, 3].map((n) => deliveries.update('msg_1', (record) => ({
        ...record, attempts: [...record.attempts, { at: at(n), statusCode: 500, latencyMs: n, error: 'the receiver answered 500' }],
      }))));
      assert.ok(attempts.every(Boolean));
      assert.equal(await deliveries.update('missing', (record) => record), undefined);
      const reopened = await current().reopen();
      const stored = await reopened.deliveries!.get('msg_1');
      assert.equal(stored?.attempts.length, 3, 'no concurrent update was lost, and all survived the reopen');
      assert.deepEqual(stored?.attempts.map((a) => a.latencyMs).sort(), [1, 2, 3]);
      assert.equal(stored?.payload, '{"type":"execution.succeeded"}');
    });

    it('lists the pending deliveries that are due, soonest first, up to a limit', async (t) => {
      const deliveries = deliveriesOrSkip(t);
      if (!deliveries) return;
      await deliveries.put(delivery('late', { nextAttemptMs: 5_000 }));
      await deliveries.put(delivery('soon', { nextAttemptMs: 2_000 }));
      await deliveries.put(delivery('soonest', { nextAttemptMs: 1_000 }));
      await deliveries.put(delivery('done', { nextAttemptMs: 0, status: 'delivered', settledAt: at(1) }));
      assert.deepEqual((await deliveries.due(3_000, 10)).map((d) => d.id), ['soonest', 'soon']);
      assert.deepEqual((await deliveries.due(10_000, 2)).map((d) => d.id), ['soonest', 'soon']);
      assert.deepEqual(await deliveries.due(500, 10), []);
    });

    it('finds by endpoint, event and status, newest first, with paging; prunes settled ones', async (t) => {
      const deliveries = deliveriesOrSkip(t);
      if (!deliveries) return;
      await deliveries.put(delivery('a', { createdAt: at(1) }));
      await deliveries.put(delivery('b', { createdAt: at(3), endpointId: 'ep_b', status: 'failed', settledAt: at(4) }));
      await deliveries.put(delivery('c', { createdAt: at(2), event: 'execution.failed', status: 'delivered', settledAt: at(2) }));
      await deliveries.put(delivery('d', { createdAt: at(2), kind: 'callback', event: 'execution.callback', endpointId: undefined }));
      assert.deepEqual((await deliveries.find()).map((d) => d.id), ['b', 'd', 'c', 'a'], 'newest first, ties: later insertion first');
      assert.deepEqual((await deliveries.find({ endpointId: 'ep_a' })).map((d) => d.id), ['c', 'a']);
      assert.deepEqual((await deliveries.find({ event: 'execution.failed' })).map((d) => d.id), ['c']);
      assert.deepEqual((await deliveries.find({ status: 'pending' })).map((d) => d.id), ['d', 'a']);
      assert.deepEqual((await deliveries.find({ limit: 2, offset: 1 })).map((d) => d.id), ['d', 'c']);
      assert.equal(await deliveries.deleteSettledBefore(at(3)), 1, 'c settled before; b after; a and d are pending');
      assert.deepEqual((await deliveries.find()).map((d) => d.id), ['b', 'd', 'a']);
    });
  });
}
