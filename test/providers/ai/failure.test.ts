import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Errors } from '../../../kernel/errors.js';
import { aiFailure, fromThrown, kindOfStatus, redact } from '../../../providers/ai/shared/failure.js';

const base = { provider: 'p', where: 'P at host' };
const idle = () => ({ deadline: new AbortController().signal });

describe('AI failures: decided once', () => {
  it('maps statuses: 401/403 auth, 408/409/429 rate-limit, 5xx server, other 4xx request', () => {
    const table: [number, string][] = [[401, 'auth'], [403, 'auth'], [408, 'rate-limit'], [409, 'rate-limit'], [429, 'rate-limit'],
      [500, 'server'], [502, 'server'], [529, 'server'], [400, 'request'], [404, 'request'], [413, 'request'], [422, 'request']];
    for (const [status, kind] of table) assert.equal(kindOfStatus(status), kind, String(status));
  });

  it('is retryable for every kind but request, blocked and cancelled', () => {
    const retryable = ['auth', 'rate-limit', 'server', 'timeout', 'network', 'malformed'] as const;
    for (const kind of retryable) assert.equal(aiFailure({ ...base, kind }).retryable, true, kind);
    for (const kind of ['request', 'blocked', 'cancelled'] as const) assert.equal(aiFailure({ ...base, kind }).retryable, false, kind);
  });

  it('is an UPSTREAM_ERROR whose message names the status, the upstream words and what to do, without the key', () => {
    const failure = aiFailure({ ...base, kind: 'auth', status: 401, detail: 'bad key sk-secret-1 <b>sent</b>', apiKey: 'sk-secret-1' });
    assert.ok(Errors.UPSTREAM_ERROR.is(failure));
    assert.equal(failure.statusCode, 502);
    assert.equal(failure.message, 'P at host answered 401 Unauthorized: bad key [redacted] sent; check the key in the AI provider settings');
    assert.equal(redact('a-k-a-k', 'k'), 'a-[redacted]-a-[redacted]');
  });

  it('reads a status from the error or its causes, Ollama\'s status_code included', () => {
    assert.equal(fromThrown({ status: 429, message: 'x' }, idle(), base).kind, 'rate-limit');
    assert.equal(fromThrown(new Error('wrapped', { cause: { status_code: 503 } }), idle(), base).status, 503);
  });

  it('lets its own signals decide timeouts and cancellation, whatever the SDK called them', () => {
    const late = new AbortController();
    late.abort();
    assert.equal(fromThrown(new Error('Request was aborted.'), { deadline: late.signal }, base).kind, 'timeout');
    assert.equal(fromThrown(new Error('x'), { deadline: late.signal, caller: late.signal }, base).kind, 'cancelled');
  });

  it('names refusals of the outbound rule, bad JSON and socket errors', () => {
    const blocked = Object.assign(new Error('no'), { name: 'OutboundBlockedError', reason: 'host is private' });
    assert.equal(fromThrown(new Error('fetch failed', { cause: blocked }), idle(), base).kind, 'blocked');
    assert.equal(fromThrown(new SyntaxError('Unexpected token <'), idle(), base).kind, 'malformed');
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const network = fromThrown(new Error('Connection error.', { cause: reset }), idle(), base);
    assert.deepEqual([network.kind, /ECONNRESET/.test(network.message)], ['network', true]);
  });
});
