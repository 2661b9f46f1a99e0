import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { at, makeExecution, type CurrentHarness } from './harness.js';

/** `deleteStartedBefore`, what retention prunes the history with. */
export function retentionCases(current: CurrentHarness): void {
  const executions = () => current().storage.executions;

  describe('executions: deleteStartedBefore', () => {
    it('removes exactly the records started before the cutoff and resolves to their ids', async () => {
      for (const minute of [5, 0, 3, 9, 1, 7]) {
        await executions().insert(makeExecution({ executionId: `exec-${minute}`, startedAt: at(minute) }));
      }
      const removed = await executions().deleteStartedBefore(at(5));
      assert.deepEqual([...removed].sort(), ['exec-0', 'exec-1', 'exec-3']);
      // The cutoff itself is kept: only records started strictly before it go.
      assert.deepEqual((await executions().summaries()).map((s) => s.executionId), ['exec-9', 'exec-7', 'exec-5']);
      assert.equal(await executions().get('exec-3'), undefined);
      assert.equal(await executions().count(), 3);
      assert.deepEqual(await executions().deleteStartedBefore(at(5)), []);
    });

    it('keeps everything when nothing is older, and copes with an empty history', async () => {
      assert.deepEqual(await executions().deleteStartedBefore(at(100)), []);
      await executions().insert(makeExecution({ startedAt: at(10) }));
      assert.deepEqual(await executions().deleteStartedBefore(at(10)), []);
      assert.equal(await executions().count(), 1);
    });

    it('counts a startedAt that is not a date as 1970, and refuses a cutoff that is not a timestamp', async () => {
      const odd = makeExecution({ startedAt: 'not a date' });
      const recent = makeExecution({ startedAt: at(1) });
      await executions().insert(odd);
      await executions().insert(recent);
      assert.deepEqual(await executions().deleteStartedBefore('1971-01-01T00:00:00.000Z'), [odd.executionId]);
      await assert.rejects(executions().deleteStartedBefore('yesterday'), TypeError);
      assert.equal(await executions().count(), 1);
    });

    it('the removal is durable: a reopened store no longer has the records', async () => {
      const old = makeExecution({ startedAt: at(0) });
      const kept = makeExecution({ startedAt: at(60) });
      await executions().insert(old);
      await executions().insert(kept);
      assert.deepEqual(await executions().deleteStartedBefore(at(30)), [old.executionId]);
      const reopened = await current().reopen();
      assert.equal(await reopened.executions.get(old.executionId), undefined);
      assert.deepEqual(await reopened.executions.get(kept.executionId), kept);
      assert.equal(await reopened.executions.count(), 1);
    });
  });
}
