// The completion webhook: delivered with the answer as its body, signed with the system webhook secret, refused
// before the run (INVALID_WEBHOOK_URL), a failing receiver (500, retried until the horizon) and a hanging one (cut
// at the timeout and retried; the webhooks plugin's variables shorten both): recorded on the execution, the answer
// unchanged.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { Registry } from '../../kernel/registry.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startWebhookReceiver, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

async function harness(env: Record<string, string>, pages: PagesServer, registry?: Registry) {
  const svc = await startService(env, undefined, { registry });
  const { apiKey } = await setupAdmin(svc);
  const task = await svc.request('POST', '/api/tasks', {
    apiKey, body: { name: 'webhook test', mode: 'agent', url: `${pages.origin}/`, actions: [], extractionScript: 'return { title: document.title }' },
  });
  assert.equal(task.status, 200, task.text);
  const run = (body: Record<string, unknown>) => svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, body });
  /** The execution record, once its `webhook` report is there. */
  const webhookOf = async (executionId: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const record = (await svc.request('GET', `/api/executions/${executionId}`, { apiKey })).body;
      if (record.webhook) return record.webhook;
      if (Date.now() > deadline) throw new Error('no webhook report was recorded');
      await sleep(100);
    }
  };
  return { svc, apiKey, taskId: task.body.id as string, run, webhookOf };
}

describe('the completion webhook', { skip: chromium.skip }, () => {
  let pages: PagesServer;
  let receiver: WebhookReceiver;
  let open: Awaited<ReturnType<typeof harness>>;
  before(async () => {
    pages = await startPagesServer();
    receiver = await startWebhookReceiver();
    // Retried after about 100 ms, 200 ms ..., and given up 1.5 s after the run ended.
    open = await harness({ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_HORIZON_MS: '1500', WEBHOOK_POLL_MS: '100' }, pages);
  });
  after(async () => {
    await open?.svc.close();
    await receiver?.close();
    await pages?.close();
  });

  it('POSTs { executionId, taskId, status, durationMs, result } after the run and records the delivery', async () => {
    receiver.behave(200);
    const generated = await open.svc.request('POST', '/api/webhooks/system-secret', { apiKey: open.apiKey, body: {} });
    assert.match(generated.body.secret, /^whsec_/);
    const res = await open.run({ webhookUrl: `${receiver.url}/hooks/done?token=s3cret` });
    assert.equal(res.body.status, 'success', res.text);
    const [hook] = await receiver.waitFor(1);
    assert.equal(hook!.method, 'POST');
    assert.equal(hook!.url, '/hooks/done?token=s3cret');
    assert.match(String(hook!.headers['content-type']), /^application\/json/);
    assert.deepEqual(hook!.body, res.body);
    const headers = Object.fromEntries(SIGNATURE_HEADERS.map((h) => [h, String(hook!.headers[h])]));
    assert.deepEqual(new Webhook(generated.body.secret).verify(JSON.stringify(hook!.body), headers), res.body, 'signed with the system secret');
    const report = await open.webhookOf(res.body.executionId);
    assert.deepEqual({ ...report, durationMs: 0 }, { delivered: true, status: 200, attempts: 1, durationMs: 0 });
    const record = (await open.svc.request('GET', `/api/executions/${res.body.executionId}`, { apiKey: open.apiKey })).text;
    assert.doesNotMatch(record, /s3cret/, 'the webhook URL (which may carry a token) is not stored');
  });

  it('retries a receiver answering 500 until the horizon, records the failure and leaves the answer unchanged', async () => {
    receiver.received.length = 0;
    receiver.behave(500);
    const started = Date.now();
    const res = await open.run({ webhookUrl: `${receiver.url}/fails` });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success', 'the receiver does not change the run');
    assert.ok(Date.now() - started < 4000, 'the caller does not wait for the retries');
    const report = await open.webhookOf(res.body.executionId);
    assert.equal(report.delivered, false);
    assert.equal(report.status, 500);
    assert.ok(report.attempts >= 3, `retried (${report.attempts} attempts)`);
    assert.match(report.error, /answered 500/);
    assert.equal(receiver.received.length, report.attempts);
    assert.deepEqual(receiver.received.map((r) => r.headers['x-taskloom-attempt']), receiver.received.map((_, i) => String(i + 1)));
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1, 'one webhook-id on every attempt');
  });

  it('publishes execution.queued, started, succeeded and failed to a subscription, limited to its tasks', async () => {
    const events = await startWebhookReceiver();
    try {
      const failing = await open.svc.request('POST', '/api/tasks', {
        apiKey: open.apiKey, body: { name: 'failing', mode: 'agent', url: `${pages.origin}/`, actions: [], extractionScript: 'throw new Error("no data")' },
      });
      const other = await open.svc.request('POST', '/api/tasks', {
        apiKey: open.apiKey, body: { name: 'not subscribed', mode: 'agent', url: `${pages.origin}/`, actions: [], extractionScript: 'return 1' },
      });
      const types = ['execution.queued', 'execution.started', 'execution.succeeded', 'execution.failed'];
      const created = await open.svc.request('POST', '/api/webhooks', {
        apiKey: open.apiKey, body: { url: `${events.url}/events`, events: types, taskIds: [open.taskId, failing.body.id] },
      });
      assert.equal(created.status, 200, created.text);
      const ok = await open.run({});
      const ko = await open.svc.request('POST', `/api/tasks/${failing.body.id}/api`, { apiKey: open.apiKey, body: {} });
      assert.equal(ko.body.status, 'error', ko.text);
      await open.svc.request('POST', `/api/tasks/${other.body.id}/api`, { apiKey: open.apiKey, body: {} });
      await events.waitFor(6, 30_000);
      await sleep(500);
      const seen = events.received.map((r) => [r.body.type, r.body.data.executionId]);
      assert.equal(seen.length, 6, `only the subscribed tasks: ${JSON.stringify(seen)}`);
      for (const [type, executionId] of [['execution.queued', ok.body.executionId], ['execution.started', ok.body.executionId], ['execution.succeeded', ok.body.executionId],
        ['execution.queued', ko.body.executionId], ['execution.started', ko.body.executionId], ['execution.failed', ko.body.executionId]]) {
        assert.ok(seen.some(([t, e]) => t === type && e === executionId), `${type} of ${executionId}`);
      }
      const failed = events.received.find((r) => r.body.type === 'execution.failed')!;
      assert.deepEqual([failed.body.data.status, failed.body.data.outcome], ['error', 'error']);
      assert.equal(failed.body.data.taskId, failing.body.id);
      assert.ok(Date.parse(failed.body.timestamp) > 0);
    } finally {
      await events.close();
    }
  });

  it('refuses a malformed webhook URL or another scheme with 400 INVALID_WEBHOOK_URL before running', async () => {
    for (const webhookUrl of ['not a url', 'ftp://example.com/hook', '']) {
      const res = await open.run({ webhookUrl });
      assert.deepEqual([res.status, res.body.error], [400, 'INVALID_WEBHOOK_URL'], webhookUrl);
    }
  });
});

describe('the completion webhook to a receiver that never answers', { skip: chromium.skip }, () => {
  const TIMEOUT_MS = 1500;
  // Cut at 1.5 s, tried again about 100 ms later, given up 4 s after the run ended: two or three attempts.
  const env = { ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_HORIZON_MS: '4000', WEBHOOK_POLL_MS: '100' };
  let pages: PagesServer;
  let receiver: WebhookReceiver;
  let hung: Awaited<ReturnType<typeof harness>>;
  before(async () => {
    pages = await startPagesServer();
    receiver = await startWebhookReceiver();
    hung = await harness(env, pages);
  });
  after(async () => {
    await hung?.svc.close();
    await receiver?.close();
    await pages?.close();
  });

  it('counts a timeout as a network error: attempts each cut at the timeout, recorded on the execution', async () => {
    receiver.behave('hang');
    const res = await hung.run({ webhookUrl: `${receiver.url}/hangs` });
    assert.equal(res.body.status, 'success', 'the receiver does not change the run');
    const report = await hung.webhookOf(res.body.executionId, 60_000);
    assert.equal(report.delivered, false);
    assert.ok(report.attempts >= 2, `retried (${report.attempts} attempts)`);
    assert.equal(report.status, undefined, 'no answer, so no status');
    assert.match(report.error, new RegExp(`did not answer within ${TIMEOUT_MS} ms`));
    assert.ok(report.durationMs >= report.attempts * TIMEOUT_MS, `${report.attempts} timeouts (${report.durationMs} ms)`);
    assert.equal(receiver.received.length, report.attempts);
    assert.deepEqual(receiver.received.map((r) => r.headers['x-taskloom-attempt']), receiver.received.map((_, i) => String(i + 1)));
    assert.ok(receiver.received.every((r) => r.body.executionId === res.body.executionId), 'the same answer each time');
  });
});

describe('the completion webhook on a server that keeps private networks out', { skip: chromium.skip }, () => {
  let pages: PagesServer;
  let receiver: WebhookReceiver;
  let closed: Awaited<ReturnType<typeof harness>>;
  before(async () => {
    pages = await startPagesServer();
    receiver = await startWebhookReceiver();
    closed = await harness({}, pages);
  });
  after(async () => {
    await closed?.svc.close();
    await receiver?.close();
    await pages?.close();
  });

  it('refuses a private webhook URL with 400 INVALID_WEBHOOK_URL and runs nothing', async () => {
    for (const webhookUrl of [receiver.url, 'http://10.0.0.8/hook', 'http://[::1]:8080/', 'http://0x7f.1/hook']) {
      const res = await closed.run({ webhookUrl });
      assert.deepEqual([res.status, res.body.error], [400, 'INVALID_WEBHOOK_URL'], webhookUrl);
      assert.match(res.body.details, /ALLOW_PRIVATE_NETWORKS/);
    }
    const history = await closed.svc.request('GET', '/api/executions', { apiKey: closed.apiKey });
    assert.deepEqual(history.body, []);
    assert.equal(receiver.received.length, 0);
  });

  it('ends a run whose task URL is private as status error with the reason', async () => {
    const res = await closed.run({});
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'error');
    assert.match(res.body.result.error.message, /task URL was refused.*ALLOW_PRIVATE_NETWORKS/);
    assert.equal(closed.svc.service.services.browser.browserPid(), undefined, 'no browser was even started');
  });
});
