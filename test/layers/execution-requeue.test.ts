// Sending a run back to the queue, the record's side: which turn's job id, which retry a task's `retries` gives,
// the record queued again (claim and owner released, log kept), a dead instance's run, and a busy grid's backoff.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { jobIdOf, requeuedAfterDeath, requeuedRecord, retryOf } from '../../layers/execution-requeue/requeued-record.js';
import { nextTurn } from '../../plugins/runs/run-retry.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const record = (extra: Partial<ExecutionRecord> = {}): ExecutionRecord => ({
  executionId: 'exec_a', taskId: 't', taskName: 'T', status: 'running', trigger: 'api', startedAt: '2026-01-01T00:00:00Z',
  durationMs: 0, result: {}, logs: [{ at: 'x', level: 'info', message: 'queued' }], instanceId: 'i1', runToken: 'tok',
  queueing: { job: { trigger: 'api' } }, ...extra,
});

describe('execution requeue', () => {
  it('names each turn\'s job', () => {
    assert.equal(jobIdOf(record()), 'exec_a');
    assert.equal(jobIdOf(record({ queueing: { job: {}, requeues: 2 } })), 'exec_a-2');
  });

  it('retries only the statuses asked for (default interrupted), up to max more attempts', () => {
    const withRetries = (retries: NonNullable<ExecutionRecord['queueing']>['retries'], attempt?: number) =>
      record({ queueing: { job: {}, retries }, ...(attempt ? { attempt } : {}) });
    assert.equal(retryOf(record(), 'interrupted'), undefined, 'not asked');
    assert.deepEqual(retryOf(withRetries({ max: 2 }), 'interrupted'), { attempt: 2, delayMs: 0 });
    assert.equal(retryOf(withRetries({ max: 2 }), 'error'), undefined);
    assert.deepEqual(retryOf(withRetries({ max: 2, on: ['error'], delayMs: 500 }, 2), 'error'), { attempt: 3, delayMs: 500 });
    assert.equal(retryOf(withRetries({ max: 2, on: ['error'] }, 3), 'error'), undefined, 'spent');
    assert.equal(retryOf(withRetries({ max: 0 }), 'interrupted'), undefined);
  });

  it('queues the record again: claim and owner released, its next turn, its wait, the log kept', () => {
    const next = requeuedRecord(record({ finishedAt: 'x' }), { message: 'again', delayMs: 1500, nowMs: NOW, attempt: 2 });
    assert.equal(next.status, 'queued');
    assert.equal(next.attempt, 2);
    for (const field of ['runToken', 'instanceId', 'finishedAt']) assert.ok(!(field in next), field);
    assert.deepEqual(next.logs.map((line) => line.message), ['queued', 'again']);
    assert.deepEqual(next.queueing, { job: { trigger: 'api' }, requeues: 1, notBefore: '2026-01-01T00:00:01.500Z' });
    assert.equal(jobIdOf(next), 'exec_a-1');
    assert.equal(requeuedRecord(record(), { message: 'm', delayMs: 0, nowMs: NOW, owner: 'i2' }).instanceId, 'i2', 'in-process: kept by its instance');
  });

  it('sends a dead instance\'s running run back only when its task asks', () => {
    assert.equal(requeuedAfterDeath(record(), NOW), undefined);
    const asked = record({ queueing: { job: {}, retries: { max: 1 } } });
    assert.equal(requeuedAfterDeath(asked, NOW)?.logs.at(-1)?.message, 'the instance running it stopped: retrying (attempt 2 of 2)');
    assert.equal(requeuedAfterDeath({ ...asked, status: 'success' }, NOW), undefined, 'only a running one');
    assert.equal(requeuedAfterDeath({ ...asked, attempt: 2 }, NOW), undefined, 'spent');
  });

  it('backs off from a busy grid, then fails past either limit', () => {
    const limits = { firstDelayMs: 1000, maxDelayMs: 5000, maxTries: 4, maxMs: 60_000 };
    const busy = { status: 'error' as const, busy: true as const, result: { error: { message: 'turned away' } } };
    const delays: number[] = [];
    let current = record();
    for (let i = 0; i < 4; i++) {
      const turn = nextTurn(current, busy, limits, NOW + i);
      assert.ok('requeue' in turn);
      delays.push(turn.requeue.delayMs);
      current = requeuedRecord(current, { ...turn.requeue, logs: current.logs });
    }
    assert.deepEqual(delays, [1000, 2000, 4000, 5000]);
    assert.equal(current.attempt, undefined, 'no attempt counted');
    const last = nextTurn(current, busy, limits, NOW + 10);
    assert.ok('end' in last);
    assert.match(last.end.result.error!.message, /^The browser grid stayed busy: it turned the run away 5 times over 0 s\. turned away$/);
    const late = nextTurn(requeuedRecord(record(), { message: '', delayMs: 0, nowMs: NOW, busy: { count: 1, since: new Date(NOW).toISOString() } }), busy, limits, NOW + 60_000);
    assert.ok('end' in late, 'past maxMs');
  });
});
