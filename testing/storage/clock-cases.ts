import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { CurrentHarness } from './harness.js';

/** StorageProvider.clock, optional in the contract (2.2): the one clock the instances sharing the storage read. */
export function clockCases(current: CurrentHarness): void {
  describe('clock (when the provider offers one)', () => {
    it('tells the storage\'s time in epoch ms, moving on as time passes', async (t) => {
      const { storage } = current();
      if (!storage.clock) return t.skip('this provider offers no clock (optional in the contract: instances then judge leases on their own clocks)');
      const before = Date.now();
      const first = await storage.clock();
      assert.equal(typeof first, 'number');
      assert.ok(Number.isFinite(first) && Number.isInteger(Math.round(first)), `a finite number: ${first}`);
      // The test's server runs beside it: a few seconds apart at most, whatever the provider's clock is.
      assert.ok(Math.abs(first - before) < 60_000, `${first} is near ${before}`);
      await sleep(200);
      const second = await storage.clock();
      assert.ok(second - first >= 150 && second - first < 5_000, `moved on by ${second - first} ms over 200 ms`);
    });
  });
}
