import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { CounterStore } from '../../kernel/contracts/storage.js';
import type { CurrentHarness } from './harness.js';

const MINUTE = 60_000;

/** StorageProvider.counters, optional in the contract (2.1): what a provider that offers it must do. */
export function counterCases(current: CurrentHarness): void {
  describe('counters (when the provider offers them)', () => {
    const countersOrSkip = (t: { skip(reason: string): void }): CounterStore | undefined => {
      const { counters } = current().storage;
      if (!counters) t.skip('this provider offers no counters (optional in the contract: plugins then count in their own process)');
      return counters;
    };

    it('counts adds within a window that later adds do not move, each key on its own', async (t) => {
      const counters = countersOrSkip(t);
      if (!counters) return;
      const first = await counters.add('a', 1, { windowMs: MINUTE });
      assert.deepEqual([first.added, first.count], [true, 1]);
      assert.ok(first.resetInMs > MINUTE - 5_000 && first.resetInMs <= MINUTE, `resetInMs ${first.resetInMs}`);
      await sleep(30);
      const third = (await counters.add('a', 1, { windowMs: MINUTE }), await counters.add('a', 1, { windowMs: 10 * MINUTE }));
      assert.deepEqual([third.added, third.count], [true, 3]);
      assert.ok(third.resetInMs <= first.resetInMs, 'the window started with the first add');
      assert.deepEqual(await counters.add('b', 5, { windowMs: MINUTE }).then((s) => s.count), 5);
      assert.equal((await counters.add('a', 0, { windowMs: MINUTE })).count, 3, 'b is counted apart');
    });

    it('refuses an add that would pass the limit and changes nothing; a take-back never goes below 0 nor opens a window', async (t) => {
      const counters = countersOrSkip(t);
      if (!counters) return;
      for (let i = 1; i <= 3; i++) assert.equal((await counters.add('k', 1, { windowMs: MINUTE, limit: 3 })).count, i);
      const refused = await counters.add('k', 1, { windowMs: MINUTE, limit: 3 });
      assert.deepEqual([refused.added, refused.count], [false, 3]);
      assert.ok(refused.resetInMs > 0 && refused.resetInMs <= MINUTE, `refused: resetInMs ${refused.resetInMs}`);
      assert.deepEqual((await counters.add('k', 2, { windowMs: MINUTE })).count, 5, 'without a limit it adds');
      assert.deepEqual((await counters.add('k', -2, { windowMs: MINUTE })).count, 3);
      assert.deepEqual((await counters.add('k', -10, { windowMs: MINUTE })).count, 0);
      assert.deepEqual(await counters.add('unset', -1, { windowMs: MINUTE }), { added: true, count: 0, resetInMs: 0 });
      assert.deepEqual(await counters.add('unset', 0, { windowMs: MINUTE }), { added: true, count: 0, resetInMs: 0 }, 'the take-back opened no window');
      const tooBig = await counters.add('fresh', 4, { windowMs: MINUTE, limit: 3 });
      assert.deepEqual([tooBig.added, tooBig.count, tooBig.resetInMs], [false, 0, 0], 'a first add above the limit stores nothing');
    });

    it('starts over once the window has passed', async (t) => {
      const counters = countersOrSkip(t);
      if (!counters) return;
      await counters.add('w', 2, { windowMs: 300, limit: 2 });
      assert.equal((await counters.add('w', 1, { windowMs: 300, limit: 2 })).added, false);
      await sleep(450);
      assert.deepEqual((await counters.add('w', 0, { windowMs: 300 })).count, 0, 'expired reads as none');
      const again = await counters.add('w', 1, { windowMs: MINUTE, limit: 2 });
      assert.deepEqual([again.added, again.count], [true, 1]);
      assert.ok(again.resetInMs > 30_000, 'in a new window of its own length');
    });

    it('reset removes a count, and says whether it held a live one', async (t) => {
      const counters = countersOrSkip(t);
      if (!counters) return;
      await counters.add('r', 4, { windowMs: MINUTE });
      assert.equal(await counters.reset('r'), true);
      assert.equal(await counters.reset('r'), false);
      assert.equal((await counters.add('r', 1, { windowMs: MINUTE })).count, 1);
      await counters.add('short', 1, { windowMs: 50 });
      await sleep(120);
      assert.equal(await counters.reset('short'), false, 'an expired count is none');
    });

    it('concurrent adds never pass the limit together', async (t) => {
      const counters = countersOrSkip(t);
      if (!counters) return;
      const results = await Promise.all(Array.from({ length: 40 }, () => counters.add('burst', 1, { windowMs: MINUTE, limit: 10 })));
      assert.equal(results.filter((r) => r.added).length, 10);
      assert.deepEqual(results.filter((r) => r.added).map((r) => r.count).sort((x, y) => x - y), Array.from({ length: 10 }, (_, i) => i + 1));
      assert.equal((await counters.add('burst', 0, { windowMs: MINUTE })).count, 10);
    });

    it('rejects a delta that is not an integer and a window that is not positive, with a TypeError', async (t) => {
      const counters = countersOrSkip(t);
      if (!counters) return;
      await assert.rejects(counters.add('x', 1.5, { windowMs: MINUTE }), TypeError);
      await assert.rejects(counters.add('x', Number.NaN, { windowMs: MINUTE }), TypeError);
      await assert.rejects(counters.add('x', 1, { windowMs: 0 }), TypeError);
      await assert.rejects(counters.add('x', 1, { windowMs: -5 }), TypeError);
    });
  });
}
