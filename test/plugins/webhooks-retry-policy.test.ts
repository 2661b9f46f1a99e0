// The retry policy of webhook deliveries as pure functions: which answers are retried, Retry-After in both forms,
// exponential back-off with bounded jitter, and the horizon that ends a delivery.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveryRecord } from '../../kernel/contracts/deliveries.js';
import { parseRetryAfter, retryableStatus, retryDelayMs, type RetryPolicy } from '../../plugins/webhooks/retry-policy.js';
import { afterAttempt } from '../../plugins/webhooks/sender.js';

const policy: RetryPolicy = { baseDelayMs: 1_000, maxDelayMs: 60_000, horizonMs: 3_600_000 };
const record = (overrides: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  id: 'msg_1', kind: 'event', event: 'execution.failed', payload: '{}', status: 'pending',
  createdAt: new Date(0).toISOString(), nextAttemptMs: 0, attempts: [], ...overrides,
});

describe('webhook retry policy', () => {
  it('retries network trouble, 408, 429 and 5xx; any other status is final', () => {
    for (const status of [408, 429, 500, 502, 503, 504, 599]) assert.equal(retryableStatus(status), true, String(status));
    for (const status of [400, 401, 403, 404, 410, 422, 301]) assert.equal(retryableStatus(status), false, String(status));
  });

  it('reads Retry-After as seconds or as an HTTP date, and ignores what does not parse', () => {
    assert.equal(parseRetryAfter('120'), 120_000);
    assert.equal(parseRetryAfter(new Date(70_000).toUTCString(), 10_000), 60_000);
    assert.equal(parseRetryAfter(new Date(0).toUTCString(), 10_000), 0, 'a date in the past: now');
    for (const value of [null, '', 'soon', '-5']) assert.equal(parseRetryAfter(value), undefined, String(value));
  });

  it('doubles the wait from the base up to the cap, jittered within 75 % to 125 %', () => {
    const at = (attempt: number, r: number) => retryDelayMs(policy, attempt, undefined, () => r);
    assert.deepEqual([1, 2, 3, 4].map((n) => at(n, 0.5)), [1_000, 2_000, 4_000, 8_000]);
    assert.deepEqual([at(1, 0), at(1, 1)], [750, 1_250]);
    assert.equal(at(40, 0.5), 60_000, 'capped');
    assert.equal(retryDelayMs(policy, 1, 30_000, () => 0.5), 30_000, 'a longer Retry-After wins');
    assert.equal(retryDelayMs(policy, 3, 10, () => 0.5), 4_000, 'a shorter one does not shorten the back-off');
  });

  it('settles on success or a final answer, schedules a retry, and fails past the horizon', () => {
    const ok = afterAttempt(record(), { ok: true, retry: false, statusCode: 204, latencyMs: 12 }, policy, 5_000);
    assert.deepEqual([ok.status, ok.attempts.length, ok.attempts[0]!.statusCode, ok.settledAt], ['delivered', 1, 204, new Date(5_000).toISOString()]);
    const final = afterAttempt(record(), { ok: false, retry: false, statusCode: 404, error: 'the receiver answered 404', latencyMs: 3 }, policy, 5_000);
    assert.equal(final.status, 'failed');
    const again = afterAttempt(record(), { ok: false, retry: true, statusCode: 503, latencyMs: 3 }, policy, 5_000);
    assert.equal(again.status, 'pending');
    assert.ok(again.nextAttemptMs >= 5_750 && again.nextAttemptMs <= 6_250, String(again.nextAttemptMs));
    const late = afterAttempt(record(), { ok: false, retry: true, error: 'timeout', latencyMs: 10_000 }, policy, 3_600_000);
    assert.equal(late.status, 'failed', 'the next attempt would start after the horizon');
    const redelivered = afterAttempt(record({ retryingSince: new Date(3_590_000).toISOString() }), { ok: false, retry: true, latencyMs: 1 }, policy, 3_600_000);
    assert.equal(redelivered.status, 'pending', 'a redelivery starts a fresh horizon');
  });
});
