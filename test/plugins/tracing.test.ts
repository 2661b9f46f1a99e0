// OpenTelemetry tracing against a local OTLP/HTTP receiver: one run started with a caller's `traceparent` is one
// trace (the request, the run, its queue wait, the browser work with its acquisition, each action and capture, and
// each webhook attempt), the webhook carries
// the trace on; with no OTEL_* endpoint nothing is exported.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../stand-ins/otlp-receiver.js';
import { startWebhookReceiver, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

describe('tracing a run over OTLP/HTTP', { skip: chromium.skip }, () => {
  let otlp: OtlpReceiver;
  let hooks: WebhookReceiver;
  let pages: PagesServer;
  let svc: TestService;
  let apiKey: string;
  before(async () => {
    otlp = await startOtlpReceiver();
    hooks = await startWebhookReceiver();
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_SERVICE_NAME: 'taskloom-test' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
    await hooks?.close();
    await otlp?.close();
  });

  it('makes one run one trace under the caller\'s traceparent, the webhook attempt included and carried on', async () => {
    const task = await svc.request('POST', '/api/tasks', {
      apiKey, body: {
        name: 'traced', mode: 'agent', url: `${pages.origin}/`, actions: [{ type: 'wait', value: '10' }, { type: 'screenshot' }],
        extractionScript: 'return { title: document.title }',
      },
    });
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const res = await svc.request('POST', `/api/tasks/${task.body.id}/api`, {
      apiKey, body: { webhookUrl: `${hooks.url}/done` }, headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    assert.equal(res.body.status, 'success', res.text);
    const [hook] = await hooks.waitFor(1);
    const deadline = Date.now() + 20_000;
    const inTrace = () => otlp.spans.filter((s) => s.traceId === traceId);
    while (!inTrace().some((s) => s.name === 'webhook attempt') && Date.now() < deadline) await sleep(100);
    const spans = inTrace();
    const one = (name: string): ReceivedSpan => {
      const found = spans.find((s) => s.name === name);
      assert.ok(found, `a ${name} span in the trace (got ${spans.map((s) => s.name).join(', ')})`);
      return found!;
    };
    const request = one('POST /api/tasks/:id/api');
    assert.equal(request.parentSpanId, callerSpan, 'the request continues the caller\'s span');
    assert.equal(request.serviceName, 'taskloom-test');
    const run = one('run');
    assert.equal(run.parentSpanId, request.spanId);
    assert.equal(run.attributes['taskloom.execution_id'], res.body.executionId);
    assert.equal(run.attributes['taskloom.status'], 'success');
    assert.equal(one('queue wait').parentSpanId, run.spanId);
    const browse = one('browse');
    assert.equal(browse.parentSpanId, run.spanId);
    assert.equal(one('browser acquire').parentSpanId, browse.spanId);
    const actions = spans.filter((s) => s.name === 'action').map((s) => [s.attributes['taskloom.action.index'], s.attributes['taskloom.action.type'], s.parentSpanId]);
    assert.deepEqual(actions.sort(), [[0, 'wait', browse.spanId], [1, 'screenshot', browse.spanId]]);
    assert.equal(one('capture').parentSpanId, browse.spanId);
    const attempt = one('webhook attempt');
    assert.equal(attempt.parentSpanId, run.spanId);
    assert.equal(attempt.attributes['http.response.status_code'], 200);
    assert.equal(hook!.headers.traceparent, `00-${traceId}-${attempt.spanId}-01`, 'the webhook carries the trace on');
  });
});

describe('tracing off', () => {
  it('exports nothing and sends no traceparent when no OTEL_* endpoint is set', async () => {
    const otlp = await startOtlpReceiver();
    const hooks = await startWebhookReceiver();
    const svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_MS: '100' });
    try {
      const { apiKey } = await setupAdmin(svc);
      const { id } = (await svc.request('POST', '/api/webhooks', { apiKey, body: { url: `${hooks.url}/x`, events: ['execution.queued'] } })).body;
      await svc.request('POST', `/api/webhooks/${id}/test`, { apiKey, headers: { traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01` } });
      const [hook] = await hooks.waitFor(1);
      assert.equal(hook!.headers.traceparent, undefined);
      await sleep(300);
      assert.equal(otlp.spans.length, 0);
    } finally {
      await svc.close();
      await hooks.close();
      await otlp.close();
    }
  });
});
