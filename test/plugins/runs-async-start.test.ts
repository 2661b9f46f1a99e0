// `POST /api/tasks/{id}/api` with `Prefer: respond-async` (RFC 7240) on the real service with real Chromium: 202 at
// once with the execution id and its Location, the run going on (events, record, webhook), the same refusals as
// the waiting form, and the waiting form unchanged without the header.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prefersRespondAsync } from '../../plugins/runs/prefer.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startWebhookReceiver, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const ASYNC = { prefer: 'respond-async' };

interface SseEvent { event: string; data: any }

/** Reads a server-sent event stream to its end. */
async function readEvents(url: string, apiKey: string): Promise<SseEvent[]> {
  const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
  assert.equal(response.status, 200);
  return (await response.text()).split('\n\n').filter((block) => block.includes('data: ')).map((block) => ({
    event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message',
    data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!),
  }));
}

describe('prefersRespondAsync reads the Prefer header as RFC 7240 writes it', () => {
  it('finds respond-async among other preferences, in any case, with or without parameters', () => {
    for (const header of ['respond-async', 'Respond-Async', 'wait=10, respond-async', 'respond-async; x=1', ' return=minimal,respond-async ']) {
      assert.equal(prefersRespondAsync(header), true, header);
    }
    assert.equal(prefersRespondAsync(['return=minimal', 'respond-async']), true, 'several Prefer headers');
  });

  it('ignores its absence and look-alikes', () => {
    for (const header of [undefined, '', 'return=representation', 'respond-asynchronously', 'x=respond-async', 'wait=respond-async']) {
      assert.equal(prefersRespondAsync(header), false, String(header));
    }
  });
});

describe('POST /api/tasks/{id}/api with Prefer: respond-async', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let receiver: WebhookReceiver;
  let apiKey: string;
  let taskId: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });

  before(async () => {
    pages = await startPagesServer();
    receiver = await startWebhookReceiver();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
    const task = await api('POST', '/api/tasks', {
      body: {
        name: 'async start', mode: 'agent', url: `${pages.origin}/`, variables: { who: 'Ada' },
        actions: [{ type: 'wait', value: '400' }, { type: 'type', selector: '#name', value: '{$who}' }, { type: 'click', selector: '#greet' }],
        extractionScript: 'return document.querySelector("#greeting").textContent',
      },
    });
    assert.equal(task.status, 200, task.text);
    taskId = task.body.id;
  });
  after(async () => {
    await svc?.close();
    await receiver?.close();
    await pages?.close();
  });

  it('answers 202 { executionId, taskId, status: queued } with Location at once; the run then ends success', async () => {
    const res = await api('POST', `/api/tasks/${taskId}/api`, { headers: ASYNC, body: { variables: { who: 'Grace' }, webhookUrl: `${receiver.url}/done` } });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['executionId', 'status', 'taskId']);
    assert.equal(res.body.status, 'queued');
    assert.equal(res.body.taskId, taskId);
    assert.match(res.body.executionId, /^exec_[A-Za-z0-9_-]+$/);
    const { executionId } = res.body;
    assert.equal(res.headers.get('location'), `/api/executions/${executionId}`);
    assert.equal(res.headers.get('preference-applied'), 'respond-async');

    const early = await api('GET', res.headers.get('location')!);
    assert.equal(early.status, 200, 'Location names the execution record');
    assert.ok(['queued', 'running'].includes(early.body.status), `still under way when the answer came: ${early.body.status}`);

    const events = await readEvents(`${svc.baseUrl}/api/executions/${executionId}/events`, apiKey);
    const logs = events.filter((e) => e.event === 'log').map((e) => e.data.message as string);
    assert.ok(logs.includes('started'), logs.join(' | '));
    assert.ok(logs.some((message) => message.includes('#greet')), logs.join(' | '));
    assert.equal(events.at(-1)!.event, 'result', 'the result comes last');
    const result = events.at(-1)!.data;
    assert.deepEqual([result.executionId, result.taskId, result.status, result.result.data], [executionId, taskId, 'success', 'Hello, Grace']);

    const record = (await api('GET', `/api/executions/${executionId}`)).body;
    assert.deepEqual([record.status, record.trigger, record.result], ['success', 'api', result.result]);
    assert.deepEqual(record.logs.map((l: { message: string }) => l.message), logs, 'the stream delivered every stored line');
    const [hook] = await receiver.waitFor(1);
    assert.deepEqual(hook!.body, result, 'the webhook still carries the final answer');
  });

  it('refuses bad requests exactly as the waiting form does, and records no execution', async () => {
    const before = (await api('GET', `/api/executions?taskId=${taskId}`)).body.length;
    const json = { 'content-type': 'application/json' };
    const cases: Array<[string, string, RequestOptions]> = [
      ['unknown task', '/api/tasks/task_nope/api', {}],
      ['malformed JSON', `/api/tasks/${taskId}/api`, { raw: '{"variables":', headers: json }],
      ['variables not an object', `/api/tasks/${taskId}/api`, { body: { variables: 'x' } }],
      ['unknown field', `/api/tasks/${taskId}/api`, { body: { variablez: {} } }],
      ['bad webhook URL', `/api/tasks/${taskId}/api`, { body: { webhookUrl: 'not a url' } }],
      ['session not open', `/api/tasks/${taskId}/api`, { body: { sessionId: 'sess_1' } }],
      ['anonymous', `/api/tasks/${taskId}/api`, { apiKey: '' }],
    ];
    const shape = (res: { status: number; body: any; headers: Headers }) => ({
      status: res.status, error: res.body.error, details: res.body.details, applied: res.headers.get('preference-applied'),
    });
    for (const [label, url, options] of cases) {
      const waiting = await api('POST', url, options);
      const async = await api('POST', url, { ...options, headers: { ...options.headers, ...ASYNC } });
      assert.ok(waiting.status >= 400 && waiting.status < 500, `${label}: ${waiting.status} ${waiting.text}`);
      assert.deepEqual(shape(async), shape(waiting), label);
      assert.equal(async.headers.get('preference-applied'), null, `${label}: nothing was applied`);
    }
    assert.equal((await api('GET', `/api/executions?taskId=${taskId}`)).body.length, before, 'no execution was recorded for a refusal');
  });

  it('without the header (or with other preferences) still answers 200 with the final result', async () => {
    for (const headers of [{}, { prefer: 'return=minimal, wait=5' }] as Record<string, string>[]) {
      const res = await api('POST', `/api/tasks/${taskId}/api`, { headers });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['durationMs', 'executionId', 'result', 'status', 'taskId']);
      assert.deepEqual([res.body.status, res.body.result.data], ['success', 'Hello, Ada']);
      assert.equal(res.headers.get('preference-applied'), null);
      assert.equal((await api('GET', `/api/executions/${res.body.executionId}`)).body.status, 'success', 'final when answered');
    }
  });

  it('documents the 202 answer, its Location header and the Prefer request header in the OpenAPI document', async () => {
    const operation = (await api('GET', '/api/openapi.json')).body.paths['/api/tasks/{id}/api'].post;
    const accepted = operation.responses['202'];
    assert.ok(accepted, 'a 202 response');
    assert.match(accepted.description, /respond-async/);
    assert.deepEqual(Object.keys(accepted.headers).sort(), ['location', 'preference-applied']);
    assert.deepEqual(Object.keys(accepted.content['application/json'].schema.properties).sort(), ['executionId', 'status', 'taskId']);
    assert.ok(operation.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'prefer'));
  });
});
