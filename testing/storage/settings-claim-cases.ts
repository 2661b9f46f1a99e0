import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { CurrentHarness } from './harness.js';

export function settingsClaimCases(current: CurrentHarness): void {
  const settings = () => current().storage.settings;
  const claims = () => current().storage.claims;

  describe('settings', () => {
    it('get of an unset key resolves undefined', async () => {
      assert.equal(await settings().get('missing'), undefined);
    });

    it('set then get returns the value, for any JSON value', async () => {
      const values: Record<string, unknown> = {
        object: { proxy: { host: '10.0.0.1', port: 8080 }, tags: ['a', 'b'] },
        string: 'hello',
        number: 42,
        boolean: false,
        array: [1, { two: 2 }],
        null: null,
      };
      for (const [key, value] of Object.entries(values)) await settings().set(key, value);
      for (const [key, value] of Object.entries(values)) assert.deepEqual(await settings().get(key), value);
    });

    it('set overwrites and returns copies', async () => {
      const value = { secret: 'one', list: [1] };
      await settings().set('k', { secret: 'zero' });
      await settings().set('k', value);
      value.list.push(2);
      const got = await settings().get<{ secret: string; list: number[] }>('k');
      assert.ok(got);
      got.secret = 'mutated';
      assert.deepEqual(await settings().get('k'), { secret: 'one', list: [1] });
    });

    it('update receives undefined for an unset key and resolves to the new value', async () => {
      let seen: unknown = 'not called';
      const result = await settings().update<number>('counter', (cur) => {
        seen = cur;
        return 1;
      });
      assert.equal(seen, undefined);
      assert.equal(result, 1);
      assert.equal(await settings().get('counter'), 1);
    });

    it('50 concurrent updates of one key lose no change', async () => {
      await Promise.all(Array.from({ length: 50 }, () => settings().update<number>('counter', (cur) => (cur ?? 0) + 1)));
      assert.equal(await settings().get('counter'), 50);
    });

    it('update rejects with the error change throws and keeps the old value', async () => {
      await settings().set('k', { v: 1 });
      const boom = new Error('nope');
      await assert.rejects(
        settings().update('k', () => {
          throw boom;
        }),
        (error) => error === boom,
      );
      assert.deepEqual(await settings().get('k'), { v: 1 });
    });

    it('delete removes a key and resolves true once', async () => {
      await settings().set('k', 'v');
      await settings().set('other', 'kept');
      assert.equal(await settings().delete('k'), true);
      assert.equal(await settings().delete('k'), false);
      assert.equal(await settings().get('k'), undefined);
      assert.equal(await settings().get('other'), 'kept');
    });

    it('keys lists every key holding a value, also after a reopen (optional member)', async (t) => {
      if (!settings().keys) return t.skip('this provider does not implement the optional settings.keys()');
      await settings().set('a', 1);
      await settings().set('b', { nested: true });
      await settings().update('c', () => null);
      await settings().set('gone', 'x');
      await settings().delete('gone');
      assert.deepEqual((await settings().keys!()).sort(), ['a', 'b', 'c']);
      await current().reopen();
      assert.deepEqual((await settings().keys!()).sort(), ['a', 'b', 'c']);
    });
  });

  describe('claims', () => {
    it('exactly one of 20 concurrent callers wins a key', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => claims().claim('fire:task-1:09:00', `owner-${i}`, 60_000)));
      assert.equal(results.filter(Boolean).length, 1);
    });

    it('a second claim of a held key is false, even by the same owner; other keys are independent', async () => {
      assert.equal(await claims().claim('key-a', 'owner-1', 60_000), true);
      assert.equal(await claims().claim('key-a', 'owner-2', 60_000), false);
      assert.equal(await claims().claim('key-a', 'owner-1', 60_000), false);
      assert.equal(await claims().claim('key-b', 'owner-2', 60_000), true);
    });

    it('an expired claim can be taken again, once', async () => {
      assert.equal(await claims().claim('short', 'owner-1', 100), true);
      assert.equal(await claims().claim('short', 'owner-2', 100), false);
      await sleep(250);
      const results = await Promise.all([claims().claim('short', 'owner-2', 60_000), claims().claim('short', 'owner-3', 60_000)]);
      assert.deepEqual(results.filter(Boolean).length, 1);
      assert.equal(await claims().claim('short', 'owner-4', 60_000), false);
    });
  });
}
