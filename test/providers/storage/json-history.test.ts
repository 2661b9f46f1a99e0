import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { ExecutionRecord, ExecutionStatus } from '../../../kernel/contracts/records.js';
import { openJsonStorage } from '../../../providers/storage/json/index.js';
import { at, makeExecution } from '../../../testing/storage/harness.js';
import { tempDir } from './json-harness.js';

const HISTORY = 100_000;
const TASKS = 50;
const STATUSES: ExecutionStatus[] = ['success', 'error', 'success', 'timeout'];

/** The i-th record of the synthetic history: deterministic, so a test can rebuild any of them. */
function historic(i: number): ExecutionRecord {
  return {
    executionId: `hist-${i}`,
    taskId: `task-${i % TASKS}`,
    taskName: `Task ${i % TASKS}`,
    status: STATUSES[i % STATUSES.length],
    trigger: i % 10 === 0 ? 'schedule' : 'api',
    startedAt: at(i),
    finishedAt: at(i + 1),
    durationMs: 1000 + (i % 997),
    result: { data: { rows: [i, i + 1], page: `https://example.com/items/${i}` }, title: `Items ${i}` },
    logs: Array.from({ length: 5 }, (_, n) => ({ at: at(i), level: 'info' as const, message: `step ${n} of run ${i}: clicked #button-${n}` })),
  };
}

/** Writes the history journal directly, in large chunks, as the store would have appended it. */
async function writeHistory(file: string): Promise<void> {
  const handle = await fs.open(file, 'w');
  try {
    for (let start = 0; start < HISTORY; start += 10_000) {
      const lines: string[] = [];
      for (let i = start; i < start + 10_000; i++) lines.push(`{"op":"put","doc":${JSON.stringify(historic(i))}}\n`);
      await handle.write(lines.join(''));
    }
  } finally {
    await handle.close();
  }
}

const ms = (from: number): string => `${(performance.now() - from).toFixed(0)} ms`;

describe('json storage with a 100,000-execution history', () => {
  it('reopens it, queries it and appends in constant time', async (t) => {
    const dir = await tempDir();
    try {
      let started = performance.now();
      await writeHistory(path.join(dir, 'executions.jsonl'));
      const bytes = (await fs.stat(path.join(dir, 'executions.jsonl'))).size;
      t.diagnostic(`wrote ${HISTORY} records (${(bytes / 1e6).toFixed(0)} MB) in ${ms(started)}`);

      started = performance.now();
      let storage = await openJsonStorage({ dir });
      t.diagnostic(`opened in ${ms(started)}; heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
      try {
        assert.equal(await storage.executions.count(), HISTORY);
        assert.equal(await storage.executions.count({ taskId: 'task-7' }), HISTORY / TASKS);
        assert.equal(await storage.executions.count({ from: at(1000), to: at(1999) }), 1000);
        for (const i of [0, 1, 50_000, HISTORY - 1]) assert.deepEqual(await storage.executions.get(`hist-${i}`), historic(i));

        const newest = await storage.executions.list({ limit: 20 });
        assert.deepEqual(newest.map((r) => r.executionId), Array.from({ length: 20 }, (_, n) => `hist-${HISTORY - 1 - n}`));
        assert.deepEqual(newest[0], historic(HISTORY - 1));
        const page = await storage.executions.list({ taskId: 'task-3', limit: 5, offset: 10 });
        assert.deepEqual(page.map((r) => r.executionId), [10, 11, 12, 13, 14].map((n) => `hist-${HISTORY - TASKS + 3 - n * TASKS}`));
        const errors = await storage.executions.summaries({ status: 'error', limit: 3 });
        assert.deepEqual(errors.map((s) => s.executionId), ['hist-99997', 'hist-99993', 'hist-99989']);

        // Appends on top of the full history (their latency is measured by bench/api.ts, not here).
        for (let n = 0; n < 200; n++) {
          await storage.executions.insert(makeExecution({ executionId: `new-${n}`, startedAt: at(HISTORY + n) }));
        }

        await storage.executions.update('hist-5', (cur) => ({ ...cur, status: 'cancelled' }));
        assert.equal((await storage.executions.get('hist-5'))?.status, 'cancelled');
        await storage.close();

        started = performance.now();
        storage = await openJsonStorage({ dir });
        t.diagnostic(`reopened in ${ms(started)}`);
        assert.equal(await storage.executions.count(), HISTORY + 200);
        assert.deepEqual(await storage.executions.get('hist-5'), { ...historic(5), status: 'cancelled' });
        assert.equal((await storage.executions.list({ limit: 1 }))[0].executionId, 'new-199');
      } finally {
        await storage.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
