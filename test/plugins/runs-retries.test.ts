// A task's `retries` option (in-process queue): refused with a clear 400 when malformed; a run ending in a status it
// names runs again in the same execution, up to `max` more times, after `delayMs`, with its attempt counted and
// every attempt's log kept; cancel reaches a run waiting for its retry; without the option nothing changes.
// (Retries after a dead worker: test/e2e/queue-retries.test.ts.)
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

describe('task retries', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const failing = (extra: Record<string, unknown> = {}) => ({
    name: 'fails', mode: 'agent', url: `${pages.origin}/`, actions: [{ type: 'javascript', value: "throw new Error('boom')" }], ...extra,
  });
  const createTask = async (body: Record<string, unknown>): Promise<string> => {
    const res = await api('POST', '/api/tasks', { body });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
  };
  const messages = (record: { logs: Array<{ message: string }> }) => record.logs.map((line) => line.message);

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('refuses a malformed retries option with a 400 naming the field', async (t) => {
    for (const retries of [{ max: 11 }, { max: -1 }, { max: 1.5 }, {}, { max: 1, on: ['success'] }, { max: 1, on: [] },
      { max: 1, delayMs: -5 }, { max: 1, delayMs: 3_600_001 }, { max: 1, on: ['error', 'error'] }, { max: 1, times: 2 }, 3]) {
      const res = await api('POST', '/api/tasks', { body: failing({ retries }) });
      assert.equal(res.status, 400, `${JSON.stringify(retries)}: ${res.text}`);
      assert.equal(res.body.error, 'VALIDATION_ERROR');
      assert.match(JSON.stringify(res.body.details), /retries/, res.text);
      if (typeof retries === 'object' && 'max' in retries && retries.max === 11) t.diagnostic(`max 11: ${JSON.stringify(res.body.details)}`);
    }
    const ok = await api('POST', '/api/tasks', { body: failing({ retries: { max: 0, delayMs: 0, on: ['interrupted', 'error', 'timeout'] } }) });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body.retries, { max: 0, delayMs: 0, on: ['interrupted', 'error', 'timeout'] });
  });

  it('runs a failed run again up to max times in the same execution, keeping each attempt\'s log', async () => {
    const taskId = await createTask(failing({ retries: { max: 2, delayMs: 200, on: ['error'] } }));
    const res = await api('POST', `/api/tasks/${taskId}/api`);
    assert.equal(res.body.status, 'error', res.text);
    assert.match(res.body.result.error.message, /boom/);
    const history = (await api('GET', `/api/executions?taskId=${taskId}`)).body;
    assert.equal(history.length, 1, 'one execution');
    const record = history[0];
    assert.equal(record.attempt, 3);
    const lines = messages(record);
    assert.equal(lines.filter((line) => line === 'started').length, 3, lines.join('\n'));
    assert.ok(lines.some((line) => /^ended error \(.*boom.*\): retrying in 0\.2 s \(attempt 2 of 3\)$/.test(line)), lines.join('\n'));
    assert.ok(lines.some((line) => /: retrying in 0\.2 s \(attempt 3 of 3\)$/.test(line)), lines.join('\n'));
    for (const field of ['queueing', 'runToken', 'instanceId']) assert.ok(!(field in record), `${field} is internal`);
    const stored = await svc.service.services.storage.executions.get(record.executionId);
    assert.equal(stored?.queueing, undefined, 'an ended run keeps no queueing (its variables) at rest');
  });

  it('leaves a run alone when its status is not among `on` (default: interrupted only), or without the option', async () => {
    for (const retries of [{ max: 3 }, undefined]) {
      const taskId = await createTask(failing(retries ? { retries } : {}));
      const res = await api('POST', `/api/tasks/${taskId}/api`);
      assert.equal(res.body.status, 'error', res.text);
      const record = (await api('GET', `/api/executions/${res.body.executionId}`)).body;
      assert.equal(record.attempt, undefined);
      assert.equal(messages(record).filter((line) => line === 'started').length, 1);
      assert.ok(!messages(record).some((line) => line.includes('retrying')));
    }
  });

  it('cancels a run that waits for its retry', async () => {
    const taskId = await createTask(failing({ retries: { max: 2, delayMs: 60_000, on: ['error'] } }));
    const started = await api('POST', `/api/tasks/${taskId}/api`, { headers: { prefer: 'respond-async' } });
    assert.equal(started.status, 202, started.text);
    const id = started.body.executionId;
    for (const deadline = Date.now() + 30_000; ; await sleep(100)) {
      const record = (await api('GET', `/api/executions/${id}`)).body;
      if (record.status === 'queued' && record.attempt === 2) break;
      if (Date.now() > deadline) throw new Error(`never queued for its retry: ${JSON.stringify(record)}`);
    }
    const cancel = await api('POST', `/api/executions/${id}/cancel`);
    assert.equal(cancel.status, 200, cancel.text);
    const record = (await api('GET', `/api/executions/${id}`)).body;
    assert.equal(record.status, 'cancelled');
    assert.equal(record.attempt, 2);
  });
});
