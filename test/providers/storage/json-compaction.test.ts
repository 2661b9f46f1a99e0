import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { TaskRecord } from '../../../kernel/contracts/records.js';
import { at, makeExecution, makeTask } from '../../../testing/storage/harness.js';
import { createJsonHarness, journalLines, recordingLogger, type LogEntry } from './json-harness.js';

/** How many times the journal named `file` was compacted, per the store's debug log. */
const compactions = (entries: LogEntry[], file: string): number =>
  entries.filter((e) => e.msg === 'compacted journal' && String((e.obj as { file?: string }).file).endsWith(file)).length;

const COMPACT_MIN_BYTES = 16 * 1024;
const payload = 'x'.repeat(300);

describe('json storage compaction', () => {
  it('rewrites a mostly-dead task journal and keeps every document', async () => {
    const logger = recordingLogger();
    const h = await createJsonHarness({ compactMinBytes: COMPACT_MIN_BYTES, logger });
    try {
      const tasks = [makeTask(), makeTask(), makeTask()];
      for (const task of tasks) await h.storage.tasks.put(task);
      for (let i = 1; i <= 300; i++) await h.storage.tasks.update(tasks[1].id, (cur) => ({ ...cur, n: i, payload }));
      await h.storage.tasks.delete(tasks[2].id);
      assert.ok(compactions(logger.entries, 'tasks.jsonl') >= 1);
      const lines = await journalLines(path.join(h.dir, 'tasks.jsonl'));
      assert.ok(lines.length < 150, `journal should have been compacted, has ${lines.length} lines for 304 writes`);
      const expected = [tasks[0], { ...tasks[1], n: 300, payload }];
      assert.deepEqual(await h.storage.tasks.list(), expected);
      const reopened = await h.reopen();
      assert.deepEqual(await reopened.tasks.list(), expected);
    } finally {
      await h.cleanup();
    }
  });

  it('loses no write that arrives while compaction runs', async () => {
    const logger = recordingLogger();
    const h = await createJsonHarness({ compactMinBytes: COMPACT_MIN_BYTES, logger });
    try {
      const tasks = Array.from({ length: 20 }, (_, i) => makeTask({ id: `task-${i}`, n: 0 }));
      for (const task of tasks) await h.storage.tasks.put(task);
      // Waves of concurrent updates: compaction triggers mid-wave, with writes queued behind and after it.
      for (let wave = 1; wave <= 40; wave++) {
        await Promise.all([
          ...tasks.map((task) => h.storage.tasks.update(task.id, (cur) => ({ ...cur, n: (cur.n as number) + 1, payload }))),
          h.storage.tasks.put(makeTask({ id: `extra-${wave}` })),
          h.storage.settings.update<number>('waves', (cur) => (cur ?? 0) + 1),
        ]);
      }
      const check = async (list: TaskRecord[]): Promise<void> => {
        assert.equal(list.length, 60);
        assert.deepEqual(
          list.slice(0, 20).map((t) => t.n),
          tasks.map(() => 40),
        );
        assert.deepEqual(
          list.slice(20).map((t) => t.id),
          Array.from({ length: 40 }, (_, i) => `extra-${i + 1}`),
        );
      };
      await check(await h.storage.tasks.list());
      assert.ok(compactions(logger.entries, 'tasks.jsonl') >= 2, 'several compactions ran during the waves');
      const lines = await journalLines(path.join(h.dir, 'tasks.jsonl'));
      assert.ok(lines.length < 20 * 40, `expected a compacted journal, found ${lines.length} lines`);
      const reopened = await h.reopen();
      await check(await reopened.tasks.list());
      assert.equal(await reopened.settings.get('waves'), 40);
    } finally {
      await h.cleanup();
    }
  });

  it('compacts the execution history, moving offsets so reads stay right before and after reopen', async () => {
    const logger = recordingLogger();
    const h = await createJsonHarness({ compactMinBytes: COMPACT_MIN_BYTES, logger });
    try {
      const runs = Array.from({ length: 200 }, (_, i) => makeExecution({ executionId: `run-${i}`, startedAt: at(i), status: 'running' }));
      for (const run of runs) await h.storage.executions.insert(run);
      const file = path.join(h.dir, 'executions.jsonl');
      const sizeBefore = (await fs.stat(file)).size;
      // Reads run alongside the rewrites, so some of them span a compaction.
      const reads: Array<Promise<unknown>> = [];
      for (let round = 0; round < 3; round++) {
        await Promise.all(
          runs.map((run, i) => {
            reads.push(h.storage.executions.get(run.executionId).then((got) => assert.equal(got?.executionId, run.executionId)));
            return h.storage.executions.update(run.executionId, (cur) => ({ ...cur, durationMs: round, logs: [...cur.logs, { at: at(i), level: 'info', message: payload }] }));
          }),
        );
      }
      for (let i = 0; i < 100; i++) await h.storage.executions.delete(`run-${i}`);
      await Promise.all(reads);
      assert.ok(compactions(logger.entries, 'executions.jsonl') >= 2, 'several compactions ran during the updates');
      const lines = await journalLines(file);
      assert.ok(lines.length < 200 * 4, `expected a compacted history, found ${lines.length} lines`);
      const expect = async (list: Array<{ executionId: string; durationMs: number; logs: unknown[] }>): Promise<void> => {
        assert.deepEqual(
          list.map((r) => r.executionId),
          Array.from({ length: 100 }, (_, i) => `run-${199 - i}`),
        );
        for (const record of list) {
          assert.equal(record.durationMs, 2);
          assert.equal(record.logs.length, runs[0].logs.length + 3);
        }
      };
      await expect(await h.storage.executions.list());
      assert.ok((await fs.stat(file)).size < sizeBefore * 4);
      const reopened = await h.reopen();
      await expect(await reopened.executions.list());
      assert.equal(await reopened.executions.markAll(['running'], 'interrupted', at(500)), 100);
      assert.equal(await reopened.executions.count({ status: 'interrupted' }), 100);
    } finally {
      await h.cleanup();
    }
  });

  it('clear() lets the history shrink to nothing', async () => {
    const logger = recordingLogger();
    const h = await createJsonHarness({ compactMinBytes: COMPACT_MIN_BYTES, logger });
    try {
      for (let i = 0; i < 100; i++) await h.storage.executions.insert(makeExecution({ result: { data: payload } }));
      const file = path.join(h.dir, 'executions.jsonl');
      assert.ok((await fs.stat(file)).size > COMPACT_MIN_BYTES);
      assert.equal(await h.storage.executions.clear(), 100);
      // The clear queues a compaction; the next write waits behind it under the history's lock.
      const after = makeExecution();
      await h.storage.executions.insert(after);
      assert.deepEqual(await journalLines(file), [{ op: 'put', doc: after }]);
      assert.equal(compactions(logger.entries, 'executions.jsonl'), 1);
      const reopened = await h.reopen();
      assert.deepEqual(await reopened.executions.list(), [after]);
    } finally {
      await h.cleanup();
    }
  });
});
