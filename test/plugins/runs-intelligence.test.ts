// Run intelligence on a real service and Chromium: a task's `expect` turns bad data into outcome invalid_data (the
// run failed by default, or only warned), `compare` stores what changed since the previous successful run (never
// a failed one), and both are published as events (execution.invalid_data, execution.changed only on change).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { executionFromAvro, executionToAvro } from '../../plugins/portability/avro/execution-codec.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startWebhookReceiver, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const returning = (value: unknown) => `return ${JSON.stringify(value)}`;
const PRICES = [{ sku: 'A', price: 10, seenAt: 1 }, { sku: 'B', price: 20, seenAt: 1 }];

describe('runs: expectations and change detection', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let receiver: WebhookReceiver;
  let apiKey: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const createTask = async (task: Record<string, unknown>): Promise<string> => {
    const res = await api('POST', '/api/tasks', { body: { name: 'intelligence test', mode: 'agent', url: `${pages.origin}/`, actions: [], ...task } });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
  };
  /** Runs the task returning `data`: its extraction script is patched first, so one task has runs of several results. */
  const runReturning = async (taskId: string, data: unknown) => {
    const patched = await api('PATCH', `/api/tasks/${taskId}`, { body: { extractionScript: returning(data) } });
    assert.equal(patched.status, 200, patched.text);
    const res = await api('POST', `/api/tasks/${taskId}/api`);
    assert.equal(res.status, 200, res.text);
    const record = (await api('GET', `/api/executions/${res.body.executionId}`)).body;
    return { answer: res.body, record };
  };
  const eventsOfType = (type: string) => receiver.received.filter((hook) => hook.body?.type === type);

  before(async () => {
    pages = await startPagesServer();
    receiver = await startWebhookReceiver();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_MS: '100' });
    ({ apiKey } = await setupAdmin(svc));
    const subscribed = await api('POST', '/api/webhooks', { body: { url: `${receiver.url}/events`, events: ['execution.changed', 'execution.invalid_data'] } });
    assert.equal(subscribed.status, 200, subscribed.text);
  });
  after(async () => {
    await svc?.close();
    await Promise.all([pages?.close(), receiver?.close()]);
  });

  it('refuses an expect whose schema cannot compile, or minRows above maxRows, with 400 VALIDATION_ERROR', async () => {
    for (const expect of [{ schema: { type: 'no-such-type' } }, { minRows: 5, maxRows: 2 }, { minRows: -1 }, { nope: true }]) {
      const res = await api('POST', '/api/tasks', { body: { name: 'bad', mode: 'agent', url: `${pages.origin}/`, actions: [], expect } });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(expect));
      assert.match(JSON.stringify(res.body.details), /expect/);
    }
    const badCompare = await api('POST', '/api/tasks', { body: { name: 'bad', mode: 'agent', url: `${pages.origin}/`, actions: [], compare: { key: 'sku' } } });
    assert.equal(badCompare.status, 400);
  });

  it('data that breaks an expectation fails the run with outcome invalid_data and the violations listed', async () => {
    const taskId = await createTask({ expect: { minRows: 1, required: ['price'] } });
    const { answer, record } = await runReturning(taskId, [{ sku: 'A', price: null }, { sku: 'B', price: 3 }]);
    assert.equal(answer.status, 'error');
    assert.match(answer.result.error.message, /price is missing or empty in 1 of 2 rows/);
    assert.deepEqual([record.status, record.outcome], ['error', 'invalid_data']);
    assert.deepEqual(record.violations, [{ rule: 'required', field: 'price', message: 'price is missing or empty in 1 of 2 rows', examples: [{ sku: 'A', price: null }] }]);
    const [event] = await receiver.waitFor(1, 30_000).then(() => eventsOfType('execution.invalid_data'));
    assert.equal(event?.body.data.executionId, answer.executionId);
    assert.equal(event?.body.data.violations[0].rule, 'required');
    const listed = await api('GET', `/api/executions/list?taskId=${taskId}&outcome=invalid_data`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.executions.map((e: { executionId: string }) => e.executionId), [answer.executionId]);
  });

  it('with onInvalid warn the run stays success, outcome invalid_data', async () => {
    const taskId = await createTask({ expect: { minRows: 3, onInvalid: 'warn' } });
    const { answer, record } = await runReturning(taskId, PRICES);
    assert.equal(answer.status, 'success');
    assert.deepEqual([record.status, record.outcome], ['success', 'invalid_data']);
    assert.equal(record.violations[0].message, '2 rows, expected at least 3');
    assert.ok(record.logs.some((l: { level: string; message: string }) => l.level === 'warn' && /broke 1 expectation/.test(l.message)));
    const metrics = await api('GET', '/api/metrics');
    assert.equal(metrics.status, 200, metrics.text);
    assert.match(metrics.text, /taskloom_runs_total\{status="success",outcome="invalid_data"\} 1\b/);
    assert.match(metrics.text, /taskloom_runs_total\{status="error",outcome="invalid_data"\} [1-9]/);
  });

  it('drift compares the row count with the previous successful run', async () => {
    const taskId = await createTask({ expect: { drift: { rowsDownPct: 50 } } });
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));
    assert.equal((await runReturning(taskId, rows(4))).answer.status, 'success', 'a first run has nothing to drift from');
    assert.equal((await runReturning(taskId, rows(2))).answer.status, 'success', 'down 50 %: allowed');
    const fell = await runReturning(taskId, rows(0));
    assert.deepEqual([fell.record.status, fell.record.outcome], ['error', 'invalid_data']);
    assert.equal(fell.record.violations[0].message, 'rows fell from 2 to 0 (100 %), more than 50 %');
  });

  it('compares each successful run with the previous successful one; a failed run is never the baseline', async () => {
    const taskId = await createTask({ compare: { key: ['sku'], ignore: ['seenAt'] }, expect: { schema: { type: 'array', minItems: 1 } } });
    const first = await runReturning(taskId, PRICES);
    assert.equal(first.answer.status, 'success');
    assert.equal(first.record.changed, undefined, 'a first run has nothing to compare');
    assert.equal(first.record.diff, undefined);
    assert.ok(first.record.logs.some((l: { message: string }) => /nothing to compare/.test(l.message)));

    const same = await runReturning(taskId, PRICES.map((row) => ({ ...row, seenAt: 2 })));
    assert.equal(same.record.changed, false, 'ignored fields are no change');
    assert.deepEqual(same.record.diff.counts, { added: 0, removed: 0, changed: 0 });
    assert.equal(same.record.comparedWith, first.answer.executionId);

    const failed = await runReturning(taskId, []);
    assert.deepEqual([failed.record.status, failed.record.outcome], ['error', 'invalid_data']);

    const changed = await runReturning(taskId, [{ sku: 'B', price: 25, seenAt: 3 }, { sku: 'C', price: 5, seenAt: 3 }]);
    assert.equal(changed.record.changed, true);
    assert.equal(changed.record.comparedWith, same.answer.executionId, 'the failed run in between is not the baseline');
    assert.deepEqual(changed.record.diff.counts, { added: 1, removed: 1, changed: 1 });
    assert.deepEqual(changed.record.diff.rows, [{ key: { sku: 'B' }, fields: { price: { old: 20, new: 25 } } }]);
    assert.deepEqual(changed.record.diff.added, [{ sku: 'C', price: 5, seenAt: 3 }]);
    assert.deepEqual(changed.record.diff.removed, [{ sku: 'A', price: 10, seenAt: 2 }]);

    // The export (README "Export and import") carries what the checks stored, and an import gives it back.
    const exported = executionFromAvro(executionToAvro(changed.record));
    assert.deepEqual([exported.changed, exported.comparedWith, exported.diff], [true, same.answer.executionId, changed.record.diff]);
    assert.deepEqual(executionFromAvro(executionToAvro(failed.record)).violations, failed.record.violations);

    const deadline = Date.now() + 30_000;
    while (eventsOfType('execution.changed').length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const changes = eventsOfType('execution.changed');
    assert.deepEqual(changes.map((hook) => hook.body.data.executionId), [changed.answer.executionId], 'sent only when something changed');
    assert.deepEqual(changes[0]!.body.data.counts, { added: 1, removed: 1, changed: 1 });
  });
});
