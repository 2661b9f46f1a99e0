import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExecutionRecord, ExecutionSummary } from '../../kernel/contracts/records.js';
import { at, makeExecution, type CurrentHarness } from './harness.js';

const ids = (records: Array<{ executionId: string }>): string[] => records.map((r) => r.executionId);

function summary(record: ExecutionRecord): ExecutionSummary {
  const { executionId, taskId, taskName, status, trigger, startedAt, durationMs, outcome, changed } = record;
  return { executionId, taskId, taskName, status, trigger, startedAt, durationMs, ...(outcome === undefined ? {} : { outcome }), ...(changed === undefined ? {} : { changed }) };
}

/** Ten records started at minutes 0..9, inserted out of order, over two tasks and three statuses. */
function history(): ExecutionRecord[] {
  const statuses = ['success', 'error', 'running'] as const;
  return [3, 0, 7, 1, 9, 4, 2, 8, 5, 6].map((minute) =>
    makeExecution({
      executionId: `exec-${minute}`,
      startedAt: at(minute),
      taskId: minute % 2 === 0 ? 'task-even' : 'task-odd',
      status: statuses[minute % 3],
    }),
  );
}

/** `history()` ids newest first, filtered by minute. */
const newest = (keep: (minute: number) => boolean = () => true): string[] =>
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0].filter(keep).map((m) => `exec-${m}`);

export function executionCases(current: CurrentHarness): void {
  const executions = () => current().storage.executions;
  const insertAll = async (records: ExecutionRecord[]): Promise<void> => {
    for (const record of records) await executions().insert(record);
  };

  describe('executions', () => {
    it('insert resolves to the record and get returns it; a missing id resolves undefined', async () => {
      const record = makeExecution();
      assert.deepEqual(await executions().insert(record), record);
      assert.deepEqual(await executions().get(record.executionId), record);
      assert.equal(await executions().get('no-such-execution'), undefined);
    });

    it('returns copies: mutating inputs or results changes nothing stored', async () => {
      const record = makeExecution();
      const original = structuredClone(record);
      const inserted = await executions().insert(record);
      record.logs.push({ at: at(2), level: 'warn', message: 'input mutated' });
      inserted.status = 'error';
      const got = await executions().get(record.executionId);
      assert.ok(got);
      got.logs.length = 0;
      const [listed] = await executions().list();
      listed.result.title = 'mutated';
      const [summarised] = await executions().summaries();
      summarised.taskName = 'mutated';
      assert.deepEqual(await executions().get(record.executionId), original);
    });

    it('update applies the change; returning undefined leaves the record unchanged', async () => {
      const record = makeExecution({ status: 'running' });
      await executions().insert(record);
      const done = await executions().update(record.executionId, (cur) => ({ ...cur, status: 'success', durationMs: 99 }));
      assert.deepEqual(done, { ...record, status: 'success', durationMs: 99 });
      const unchanged = await executions().update(record.executionId, (cur) => {
        cur.status = 'error';
        return undefined;
      });
      assert.deepEqual(unchanged, done);
      assert.deepEqual(await executions().get(record.executionId), done);
    });

    it('update of a missing id resolves undefined without calling change', async () => {
      let calls = 0;
      const result = await executions().update('no-such-execution', (cur) => {
        calls += 1;
        return cur;
      });
      assert.equal(result, undefined);
      assert.equal(calls, 0);
      assert.equal(await executions().count(), 0);
    });

    it('update rejects with the error change throws and stores nothing', async () => {
      const record = makeExecution();
      await executions().insert(record);
      const boom = new Error('change failed');
      await assert.rejects(
        executions().update(record.executionId, () => {
          throw boom;
        }),
        (error) => error === boom,
      );
      assert.deepEqual(await executions().get(record.executionId), record);
    });

    it('50 concurrent updates lose no change', async () => {
      const record = makeExecution({ durationMs: 0 });
      await executions().insert(record);
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          executions().update(record.executionId, (cur) => ({
            ...cur,
            durationMs: cur.durationMs + 1,
            logs: [...cur.logs, { at: at(2), level: 'debug', message: `step ${i}` }],
          })),
        ),
      );
      const stored = await executions().get(record.executionId);
      assert.ok(stored);
      assert.equal(stored.durationMs, 50);
      assert.equal(stored.logs.length, record.logs.length + 50);
    });

    it('list returns full records, newest startedAt first', async () => {
      const records = history();
      await insertAll(records);
      const listed = await executions().list();
      assert.deepEqual(ids(listed), newest());
      assert.deepEqual(listed[0], records.find((r) => r.executionId === 'exec-9'));
    });

    it('list pages with limit and offset', async () => {
      await insertAll(history());
      assert.deepEqual(ids(await executions().list({ limit: 3 })), newest().slice(0, 3));
      assert.deepEqual(ids(await executions().list({ limit: 3, offset: 3 })), newest().slice(3, 6));
      assert.deepEqual(ids(await executions().list({ offset: 8 })), newest().slice(8));
      assert.deepEqual(ids(await executions().list({ limit: 5, offset: 20 })), []);
    });

    it('list filters by status, taskId and an inclusive from/to range', async () => {
      await insertAll(history());
      assert.deepEqual(ids(await executions().list({ status: 'error' })), newest((m) => m % 3 === 1));
      assert.deepEqual(ids(await executions().list({ taskId: 'task-odd' })), newest((m) => m % 2 === 1));
      assert.deepEqual(ids(await executions().list({ from: at(2), to: at(5) })), newest((m) => m >= 2 && m <= 5));
      assert.deepEqual(ids(await executions().list({ from: at(7) })), newest((m) => m >= 7));
      assert.deepEqual(ids(await executions().list({ to: at(1) })), newest((m) => m <= 1));
      assert.deepEqual(
        ids(await executions().list({ taskId: 'task-even', status: 'success', from: at(1), limit: 1 })),
        newest((m) => m % 2 === 0 && m % 3 === 0 && m >= 1).slice(0, 1),
      );
    });

    it('list, summaries and count filter by trigger, alone and with the other filters', async () => {
      const triggers = ['api', 'schedule', 'dashboard'] as const;
      await insertAll(history().map((r, i) => ({ ...r, trigger: triggers[Number(r.executionId.slice(5)) % 3], taskName: `"trigger":"schedule" ${i}` })));
      // Minute m has trigger triggers[m % 3] and status statuses[m % 3]: schedule runs are the error runs.
      assert.deepEqual(ids(await executions().list({ trigger: 'schedule' })), newest((m) => m % 3 === 1));
      assert.deepEqual(ids(await executions().summaries({ trigger: 'dashboard', taskId: 'task-even' })), newest((m) => m % 3 === 2 && m % 2 === 0));
      assert.equal(await executions().count({ trigger: 'api' }), newest((m) => m % 3 === 0).length);
      assert.equal(await executions().count({ trigger: 'api', status: 'error' }), 0);
      assert.deepEqual(ids(await executions().list({ trigger: 'api', from: at(3), limit: 2 })), newest((m) => m % 3 === 0 && m >= 3).slice(0, 2));
    });

    it('list, summaries and count filter by outcome; a record without one matches by its status (contract 2.6)', async () => {
      // Minutes 0, 3, 6, 9 (success) have no outcome (older records); 1, 4, 7 (error) ended anti_bot, except 7
      // which says error; 2, 5, 8 (running) have none. Task names that look like the summary key cannot match.
      await insertAll(history().map((r) => {
        const minute = Number(r.executionId.slice(5));
        const outcome = minute === 7 ? 'error' as const : minute % 3 === 1 ? 'anti_bot' as const : undefined;
        return { ...r, taskName: '"outcome":"anti_bot"', ...(outcome ? { outcome } : {}) };
      }));
      assert.deepEqual(ids(await executions().list({ outcome: 'anti_bot' })), ['exec-4', 'exec-1']);
      assert.deepEqual(ids(await executions().summaries({ outcome: 'error' })), ['exec-7']);
      assert.deepEqual(ids(await executions().list({ outcome: 'success', taskId: 'task-even' })), newest((m) => m % 3 === 0 && m % 2 === 0));
      assert.equal(await executions().count({ outcome: 'success' }), 4);
      assert.equal(await executions().count({ outcome: 'anti_bot', status: 'error', from: at(2) }), 1);
      assert.equal(await executions().count({ outcome: 'crashed' }), 0);
      const [four] = await executions().summaries({ outcome: 'anti_bot', limit: 1, offset: 1 });
      assert.equal(four.executionId, 'exec-1');
      assert.equal(four.outcome, 'anti_bot');
      // A changed outcome is what the filter sees next.
      await executions().update('exec-4', (record) => ({ ...record, outcome: 'crashed' }));
      assert.deepEqual(ids(await executions().list({ outcome: 'crashed' })), ['exec-4']);
      assert.deepEqual(ids(await executions().list({ outcome: 'anti_bot' })), ['exec-1']);
    });

    it('list, summaries and count filter by changed; a record without it matches neither value (contract 2.7)', async () => {
      // Minutes 0, 3, 6, 9 changed; 1, 4, 7 compared and unchanged; 2, 5, 8 never compared. Task names that look
      // like the summary key cannot match.
      await insertAll(history().map((r) => {
        const minute = Number(r.executionId.slice(5));
        const changed = minute % 3 === 0 ? true : minute % 3 === 1 ? false : undefined;
        return { ...r, taskName: '"changed":true', ...(changed === undefined ? {} : { changed }) };
      }));
      assert.deepEqual(ids(await executions().list({ changed: true })), ['exec-9', 'exec-6', 'exec-3', 'exec-0']);
      assert.deepEqual(ids(await executions().summaries({ changed: false })), ['exec-7', 'exec-4', 'exec-1']);
      assert.deepEqual(ids(await executions().list({ changed: true, taskId: 'task-even' })), newest((m) => m % 3 === 0 && m % 2 === 0));
      assert.equal(await executions().count({ changed: true }), 4);
      assert.equal(await executions().count({ changed: false, from: at(2) }), 2);
      const [six] = await executions().summaries({ changed: true, limit: 1, offset: 1 });
      assert.equal(six.executionId, 'exec-6');
      assert.equal(six.changed, true);
      // A changed flag is what the filter sees next.
      await executions().update('exec-6', (record) => ({ ...record, changed: false }));
      assert.deepEqual(ids(await executions().list({ changed: true })), ['exec-9', 'exec-3', 'exec-0']);
      assert.deepEqual(ids(await executions().list({ changed: false, limit: 2 })), ['exec-7', 'exec-6']);
    });

    it('summaries carry the summary fields only (no logs, no result), newest first, with the same filters', async () => {
      const records = history();
      await insertAll(records);
      const byId = new Map(records.map((r) => [r.executionId, r]));
      const all = await executions().summaries();
      assert.deepEqual(all, newest().map((id) => summary(byId.get(id)!)));
      for (const item of all) {
        assert.equal('logs' in item, false);
        assert.equal('result' in item, false);
      }
      const page = await executions().summaries({ taskId: 'task-even', limit: 2, offset: 1 });
      assert.deepEqual(ids(page), newest((m) => m % 2 === 0).slice(1, 3));
    });

    it('count counts all records or those matching the filters', async () => {
      assert.equal(await executions().count(), 0);
      await insertAll(history());
      assert.equal(await executions().count(), 10);
      assert.equal(await executions().count({}), 10);
      assert.equal(await executions().count({ status: 'running' }), newest((m) => m % 3 === 2).length);
      assert.equal(await executions().count({ taskId: 'task-even' }), 5);
      assert.equal(await executions().count({ from: at(3), to: at(3) }), 1);
      assert.equal(await executions().count({ from: at(5), to: at(1) }), 0);
      assert.equal(await executions().count({ taskId: 'task-odd', from: at(4) }), newest((m) => m % 2 === 1 && m >= 4).length);
    });

    it('delete removes one record and resolves true once', async () => {
      const [a, b] = [makeExecution({ startedAt: at(1) }), makeExecution({ startedAt: at(2) })];
      await insertAll([a, b]);
      assert.equal(await executions().delete(a.executionId), true);
      assert.equal(await executions().delete(a.executionId), false);
      assert.equal(await executions().get(a.executionId), undefined);
      assert.deepEqual(await executions().list(), [b]);
      assert.equal(await executions().count(), 1);
    });

    it('clear removes every record and resolves to how many', async () => {
      assert.equal(await executions().clear(), 0);
      await insertAll(history());
      assert.equal(await executions().clear(), 10);
      assert.equal(await executions().count(), 0);
      assert.deepEqual(await executions().list(), []);
      assert.equal(await executions().get('exec-3'), undefined);
      const after = makeExecution();
      await executions().insert(after);
      assert.deepEqual(await executions().list(), [after]);
    });

    it('markAll moves the given statuses to one status, sets finishedAt and counts', async () => {
      const queued = makeExecution({ status: 'queued', startedAt: at(1) });
      const running = makeExecution({ status: 'running', startedAt: at(2) });
      const done = makeExecution({ status: 'success', startedAt: at(3) });
      await insertAll([queued, running, done]);
      const finishedAt = at(60);
      assert.equal(await executions().markAll(['queued', 'running'], 'interrupted', finishedAt), 2);
      assert.deepEqual(await executions().get(queued.executionId), { ...queued, status: 'interrupted', finishedAt });
      assert.deepEqual(await executions().get(running.executionId), { ...running, status: 'interrupted', finishedAt });
      assert.deepEqual(await executions().get(done.executionId), done);
      assert.equal(await executions().count({ status: 'interrupted' }), 2);
      assert.equal(await executions().markAll(['queued', 'running'], 'interrupted', finishedAt), 0);
    });

    it('markAll with an instance filter changes only the records of that instance, or (null) of no instance', async () => {
      const a1 = makeExecution({ status: 'running', instanceId: 'instance-a', startedAt: at(1) });
      const a5 = makeExecution({ status: 'queued', instanceId: 'instance-a', startedAt: at(5) });
      const aDone = makeExecution({ status: 'success', instanceId: 'instance-a', startedAt: at(2) });
      const b1 = makeExecution({ status: 'running', instanceId: 'instance-b', startedAt: at(1) });
      const none = makeExecution({ status: 'running', startedAt: at(3) });
      await insertAll([a1, a5, aDone, b1, none]);
      const finishedAt = at(60);
      const interrupted = (record: ExecutionRecord) => ({ ...record, status: 'interrupted', finishedAt });
      const mark = (instanceId: string | null) => executions().markAll(['queued', 'running'], 'interrupted', finishedAt, { instanceId });

      assert.equal(await mark('instance-a'), 2);
      assert.deepEqual(await executions().get(a1.executionId), interrupted(a1));
      assert.deepEqual(await executions().get(a5.executionId), interrupted(a5));
      assert.deepEqual(await executions().get(aDone.executionId), aDone, 'a finished record keeps its status');
      assert.deepEqual(await executions().get(b1.executionId), b1, 'another instance\'s record is untouched');
      assert.deepEqual(await executions().get(none.executionId), none);
      assert.equal(await mark('instance-c'), 0);

      assert.equal(await mark(null), 1, 'null selects the records that name no instance');
      assert.deepEqual(await executions().get(none.executionId), interrupted(none));
      assert.deepEqual(await executions().get(b1.executionId), b1);
      assert.equal(await mark('instance-b'), 1);
      assert.equal(await executions().count({ status: 'interrupted' }), 4);
    });
  });
}
