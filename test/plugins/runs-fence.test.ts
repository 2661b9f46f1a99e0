// Fencing of a run's record (plugins/runs/run-fence.ts) on a real json store: one claim wins, the worker's later
// writes apply only under its claim, and once another instance ended the run (recovery's markAll) a late end from
// the worker is refused, also when it was kept through an outage and written later.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, it } from 'node:test';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import { createFinalRecords, FINAL_RECORD_LIMITS } from '../../plugins/runs/final-records.js';
import { claimRun, fenced, newRunToken } from '../../plugins/runs/run-fence.js';
import { makeExecution } from '../../testing/storage/harness.js';
import { createJsonHarness, recordingLogger, type JsonHarness } from '../providers/storage/json-harness.js';

const success = (record: ExecutionRecord): ExecutionRecord => ({ ...record, status: 'success', durationMs: 5, finishedAt: new Date().toISOString() });
const answer = (record: ExecutionRecord) => ({ executionId: record.executionId, taskId: record.taskId, status: 'success' as const, durationMs: 5, result: {} });
const queued = () => makeExecution({ status: 'queued', finishedAt: undefined, logs: [], result: {} });
const claimOf = (token: string, instanceId: string) => ({ token, instanceId, startedAt: new Date().toISOString() });

describe('run fencing', () => {
  let harness: JsonHarness;
  afterEach(() => harness?.cleanup());

  it('one claim wins; the loser finds the record running under the winner', async () => {
    harness = await createJsonHarness();
    const store = harness.storage.executions;
    const record = await store.insert(queued());
    const [t1, t2] = [newRunToken(), newRunToken()];
    const signal = new AbortController().signal;
    const [c1, c2] = await Promise.all([
      claimRun(store, record.executionId, claimOf(t1, 'a'), signal, recordingLogger()),
      claimRun(store, record.executionId, claimOf(t2, 'b'), signal, recordingLogger()),
    ]);
    assert.deepEqual([c1.claimed, c2.claimed].sort(), [false, true]);
    const winner = c1.claimed ? t1 : t2;
    const loser = c1.claimed ? c2 : c1;
    assert.ok('record' in loser && loser.record?.runToken === winner && loser.record.status === 'running');
    assert.equal((await store.get(record.executionId))!.instanceId, c1.claimed ? 'a' : 'b');
  });

  it('applies a worker\'s writes only under its claim; after another instance ended the run, its end is refused', async () => {
    harness = await createJsonHarness();
    const store = harness.storage.executions;
    const record = await store.insert(queued());
    const token = newRunToken();
    await claimRun(store, record.executionId, claimOf(token, 'a'), new AbortController().signal, recordingLogger());
    const finals = createFinalRecords(store, recordingLogger());
    assert.equal(await finals.write(record.executionId, fenced(newRunToken(), success, true)), 'refused', 'another token');
    assert.equal(await finals.write(record.executionId, fenced(undefined, success, true)), 'refused', 'no token: it was claimed');
    assert.equal(await store.markAll(['running'], 'interrupted', new Date().toISOString(), { instanceId: 'a' }), 1, 'recovery ends it');
    assert.equal(await finals.write(record.executionId, fenced(token, success, true)), 'refused', 'ended: the late end is refused');
    assert.equal((await store.get(record.executionId))!.status, 'interrupted');
    const note = (r: ExecutionRecord) => ({ ...r, webhook: { delivered: true, attempts: 1 } });
    assert.equal(await finals.write(record.executionId, fenced(token, note, false)), 'written', 'a note under its claim still applies');
    const unclaimed = await store.insert(queued());
    assert.equal(await finals.write(unclaimed.executionId, fenced(undefined, success, true)), 'written', 'never started: ended while queued');
    assert.equal(await finals.write(unclaimed.executionId, fenced(undefined, note, false)), 'written', 'and its note');
  });

  it('a final record kept through an outage is refused when written, if the run was ended meanwhile', async () => {
    harness = await createJsonHarness();
    const real = harness.storage.executions;
    const state = { down: false };
    const store: ExecutionStore = {
      ...real,
      get: (id) => real.get(id),
      update: (id, change) => (state.down ? Promise.reject(Errors.STORAGE_UNAVAILABLE({ reason: 'test outage' }, { retryable: true })) : real.update(id, change)),
    };
    const record = await real.insert(queued());
    const token = newRunToken();
    await claimRun(real, record.executionId, claimOf(token, 'a'), new AbortController().signal, recordingLogger());
    const logger = recordingLogger();
    const finals = createFinalRecords(store, logger, { ...FINAL_RECORD_LIMITS, firstDelayMs: 20, maxDelayMs: 40 });
    state.down = true;
    assert.equal(await finals.write(record.executionId, fenced(token, success, true), { answer: answer(record), logs: [] }), 'kept');
    await real.markAll(['running'], 'interrupted', new Date().toISOString(), { instanceId: 'a' }); // the others, meanwhile
    state.down = false;
    for (let i = 0; i < 200 && finals.size > 0; i++) await sleep(20);
    assert.equal(finals.size, 0, 'tried and settled');
    assert.equal((await real.get(record.executionId))!.status, 'interrupted', 'the first end stays');
    assert.ok(logger.entries.some((entry) => /kept final record was refused/.test(entry.msg ?? '')), 'and the refusal is logged');
  });
});
