// The records kept through a storage outage (plugins/runs/final-records.ts), on a real json store that a wrapper
// makes unavailable: kept in order and written when the store is back, bounded (the oldest dropped, logged), a
// missing record not retried, and at shutdown one more try with a log line for each record lost.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, it } from 'node:test';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import { createFinalRecords, FINAL_RECORD_LIMITS } from '../../plugins/runs/final-records.js';
import type { RunAnswer } from '../../plugins/runs/live-run.js';
import { makeExecution } from '../../testing/storage/harness.js';
import { createJsonHarness, recordingLogger, type JsonHarness } from '../providers/storage/json-harness.js';

/** The store's executions, failing with a retryable STORAGE_UNAVAILABLE while `down`. */
function switchable(store: ExecutionStore) {
  const state = { down: false, writes: 0 };
  const wrapped: ExecutionStore = {
    ...store,
    get: (id) => store.get(id),
    update: async (id, change) => {
      if (state.down) throw Errors.STORAGE_UNAVAILABLE({ reason: 'test outage' }, { retryable: true });
      state.writes++;
      return store.update(id, change);
    },
  };
  return { state, store: wrapped };
}

const answerOf = (record: ExecutionRecord, status: RunAnswer['status']): RunAnswer => ({
  executionId: record.executionId, taskId: record.taskId, status, durationMs: 1200, result: { data: { n: 1 } },
});
const ending = (answer: RunAnswer) => (record: ExecutionRecord): ExecutionRecord => ({
  ...record, status: answer.status, durationMs: answer.durationMs, result: answer.result, finishedAt: '2030-01-01T00:00:00.000Z',
});
const quick = { ...FINAL_RECORD_LIMITS, firstDelayMs: 20, maxDelayMs: 40 };

async function until(probe: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 20 s`);
    await sleep(20);
  }
}

describe('final records kept through a storage outage', () => {
  let harness: JsonHarness;
  afterEach(() => harness?.cleanup());

  it('keeps the final change and later ones in order, answers the true end meanwhile, writes them when the store is back', async () => {
    harness = await createJsonHarness();
    const record = await harness.storage.executions.insert(makeExecution({ status: 'running' }));
    const { state, store } = switchable(harness.storage.executions);
    const logger = recordingLogger();
    const finals = createFinalRecords(store, logger, quick);
    state.down = true;
    const answer = answerOf(record, 'success');
    await finals.write(record.executionId, ending(answer), { answer, logs: [] });
    await finals.write(record.executionId, (r) => ({ ...r, webhook: { delivered: true, attempts: 1 } } as ExecutionRecord));
    await finals.write(record.executionId, (r) => ({ ...r, status: 'running' }), undefined, true); // progress: superseded
    assert.equal(finals.answerOf(record.executionId)?.answer.status, 'success');
    assert.equal((await harness.storage.executions.get(record.executionId))?.status, 'running');
    assert.ok(logger.entries.some((e) => e.level === 'warn' && /kept in memory/.test(e.msg ?? '')), 'a log line says it is kept');

    state.down = false;
    await until(async () => finals.size === 0, 'written');
    const stored = await harness.storage.executions.get(record.executionId);
    assert.deepEqual([stored?.status, stored?.result, (stored as { webhook?: unknown }).webhook], ['success', { data: { n: 1 } }, { delivered: true, attempts: 1 }]);
    assert.equal(finals.answerOf(record.executionId), undefined);
    assert.ok(logger.entries.some((e) => e.level === 'info' && /now that storage answers again/.test(e.msg ?? '')));
  });

  it('is bounded: past maxRecords the oldest is dropped with an error line; a missing record is not retried', async () => {
    harness = await createJsonHarness();
    const { state, store } = switchable(harness.storage.executions);
    const logger = recordingLogger();
    const finals = createFinalRecords(store, logger, { ...quick, maxRecords: 2, firstDelayMs: 60_000 });
    state.down = true;
    const records = [];
    for (let i = 0; i < 3; i++) records.push(await harness.storage.executions.insert(makeExecution({ status: 'running' })));
    for (const record of records) {
      const answer = answerOf(record, 'error');
      await finals.write(record.executionId, ending(answer), { answer, logs: [] });
    }
    assert.equal(finals.size, 2);
    assert.equal(finals.answerOf(records[0]!.executionId), undefined, 'the oldest was dropped');
    assert.ok(logger.entries.some((e) => e.level === 'error' && /dropped a kept execution record/.test(e.msg ?? '')));

    state.down = false;
    const writes = state.writes;
    const answer = answerOf(records[0]!, 'success');
    await finals.write('exec_missing', ending(answer), { answer, logs: [] });
    assert.equal(finals.answerOf('exec_missing'), undefined, 'a record that does not exist is not kept');
    assert.equal(state.writes, writes + 1);
  });

  it('at shutdown: one more try writes what it can, and each record still lost is logged', async () => {
    harness = await createJsonHarness();
    const { state, store } = switchable(harness.storage.executions);
    const logger = recordingLogger();
    const finals = createFinalRecords(store, logger, { ...quick, firstDelayMs: 60_000, maxDelayMs: 60_000 });
    const record = await harness.storage.executions.insert(makeExecution({ status: 'running' }));
    state.down = true;
    const answer = answerOf(record, 'cancelled');
    await finals.write(record.executionId, ending(answer), { answer, logs: [] });
    await finals.flush();
    assert.equal(finals.size, 0);
    assert.ok(logger.entries.some((e) => e.level === 'error' && /lost/.test(e.msg ?? '') && (e.obj as { executionId?: string }).executionId === record.executionId));

    const other = await harness.storage.executions.insert(makeExecution({ status: 'running' }));
    await finals.write(other.executionId, ending(answer), { answer, logs: [] });
    state.down = false;
    await finals.flush();
    assert.equal((await harness.storage.executions.get(other.executionId))?.status, 'cancelled', 'the last try wrote it');
  });

  it('at shutdown: a store that never answers holds the last try only for its time limit', async () => {
    harness = await createJsonHarness();
    const { state, store } = switchable(harness.storage.executions);
    let silent = false;
    const hanging: ExecutionStore = { ...store, update: (id, change) => (silent ? new Promise(() => undefined) : store.update(id, change)) };
    const logger = recordingLogger();
    const finals = createFinalRecords(hanging, logger, { ...quick, firstDelayMs: 60_000, maxDelayMs: 60_000 });
    const record = await harness.storage.executions.insert(makeExecution({ status: 'running' }));
    state.down = true;
    const answer = answerOf(record, 'success');
    await finals.write(record.executionId, ending(answer), { answer, logs: [] });
    silent = true;
    const started = Date.now();
    await finals.flush(300);
    assert.ok(Date.now() - started < 5_000, `the stop was not held (${Date.now() - started} ms)`);
    assert.ok(logger.entries.some((e) => e.level === 'error' && /lost/.test(e.msg ?? '')));
  });
});
