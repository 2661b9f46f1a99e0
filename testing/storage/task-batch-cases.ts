import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeTask, type CurrentHarness } from './harness.js';

/** TaskStore.putAll, optional in the contract: what a provider that offers it must do. */
export function taskBatchCases(current: CurrentHarness): void {
  describe('tasks.putAll (when the provider offers it)', () => {
    const putAllOrSkip = (t: { skip(reason: string): void }) => {
      const { tasks } = current().storage;
      if (!tasks.putAll) t.skip('this provider does not write tasks as one batch (optional in the contract)');
      return tasks.putAll?.bind(tasks);
    };

    it('stores every task, new ones in order after those there, a replaced one in its place; durable across a reopen', async (t) => {
      const putAll = putAllOrSkip(t);
      if (!putAll) return;
      const { tasks } = current().storage;
      const first = makeTask({ name: 'first' });
      const kept = makeTask({ name: 'kept' });
      await tasks.put(first);
      await tasks.put(kept);
      const added = Array.from({ length: 1203 }, (_, i) => makeTask({ name: `added ${i}` }));
      const replaced = { ...first, name: 'first, replaced' };
      await putAll([...added, replaced]);
      const expected = [replaced, kept, ...added];
      assert.deepEqual((await tasks.list()).map((task) => task.name), expected.map((task) => task.name));
      assert.deepEqual(await tasks.get(added[600]!.id), added[600]);
      assert.equal(await tasks.count(), expected.length);
      const reopened = await current().reopen();
      assert.deepEqual((await reopened.tasks.list()).map((task) => task.id), expected.map((task) => task.id));
    });

    it('an id given twice takes the later document at the place of the first; an empty list writes nothing', async (t) => {
      const putAll = putAllOrSkip(t);
      if (!putAll) return;
      const { tasks } = current().storage;
      const a = makeTask({ name: 'a' });
      const b = makeTask({ name: 'b' });
      await putAll([a, b, { ...a, name: 'a again' }]);
      assert.deepEqual((await tasks.list()).map((task) => task.name), ['a again', 'b']);
      await putAll([]);
      assert.equal(await tasks.count(), 2);
    });

    it('refuses a task without an id and writes none of the others', async (t) => {
      const putAll = putAllOrSkip(t);
      if (!putAll) return;
      const { tasks } = current().storage;
      await assert.rejects(putAll([makeTask(), { ...makeTask(), id: '' }]));
      assert.equal(await tasks.count(), 0);
    });
  });
}
