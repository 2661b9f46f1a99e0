// The completion webhook: delivered with the answer as its body, refused before the run (INVALID_WEBHOOK_URL),
// a failing receiver (500, retried) and a hanging one (timed out and retried, on a service whose runs plugin has a
// shorter per-attempt timeout): recorded on the execution, the answer unchanged.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Registry } from '../../kernel/registry.js';
import { plugins, providers } from '../../app/built-ins.js';
import { createRunsPlugin, type RunsPluginOptions } from '../../plugins/runs/index.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startWebhookReceiver, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

/** The built-in modules, with the runs plugin's webhook timing replaced. */
function registryWith(webhook: RunsPluginOptions['webhook']): Registry {
  const registry = new Registry();
  registry.addModule({ providers, plugins: plugins?.map((plugin) => (plugin.name === 'runs' ? createRunsPlugin({ webhook }) : plugin)) });
  return registry;
}

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
    open = await harness({ ALLOW_PRIVATE_NETWORKS: 'true' }, pages);
  });
  after(async () => {
    await open?.svc.close();
    await receiver?.close();
    await pages?.close();
  });

  it('POSTs { executionId, taskId, status, durationMs, result } after the run and records the delivery', async () => {
    receiver.behave(200);
    const res = await open.run({ webhookUrl: `${receiver.url}/hooks/done?token=s3cret` });
    assert.equal(res.body.status, 'success', res.text);
    const [hook] = await receiver.waitFor(1);
    assert.equal(hook!.method, 'POST');
    assert.equal(hook!.url, '/hooks/done?token=s3cret');
    assert.match(String(hook!.headers['content-type']), /^application\/json/);
    assert.deepEqual(hook!.body, res.body);
    const report = await open.webhookOf(res.body.executionId);
    assert.deepEqual({ ...report, durationMs: 0 }, { delivered: true, status: 200, attempts: 1, durationMs: 0 });
    const record = (await open.svc.request('GET', `/api/executions/${res.body.executionId}`, { apiKey: open.apiKey })).text;
    assert.doesNotMatch(record, /s3cret/, 'the webhook URL (which may carry a token) is not stored');
  });

  it('retries a receiver answering 500 twice, records the failure and leaves the answer unchanged', async () => {
    receiver.received.length = 0;
    receiver.behave(500);
    const started = Date.now();
    const res = await open.run({ webhookUrl: `${receiver.url}/fails` });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success', 'the receiver does not change the run');
    assert.ok(Date.now() - started < 4000, 'the caller does not wait for the retries');
    await receiver.waitFor(3);
    const report = await open.webhookOf(res.body.executionId);
    assert.equal(report.delivered, false);
    assert.equal(report.status, 500);
    assert.equal(report.attempts, 3);
    assert.match(report.error, /answered 500/);
    assert.ok(report.durationMs >= 4000, 'backoff of 1 s, then 3 s');
    assert.deepEqual(receiver.received.map((r) => r.headers['x-taskloom-attempt']), ['1', '2', '3']);
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
  let pages: PagesServer;
  let receiver: WebhookReceiver;
  let hung: Awaited<ReturnType<typeof harness>>;
  before(async () => {
    pages = await startPagesServer();
    receiver = await startWebhookReceiver();
    // The plugin's own option, so the three attempts take seconds rather than 3 x 10 s.
    hung = await harness({ ALLOW_PRIVATE_NETWORKS: 'true' }, pages, registryWith({ timeoutMs: TIMEOUT_MS, retryDelaysMs: [100, 200] }));
  });
  after(async () => {
    await hung?.svc.close();
    await receiver?.close();
    await pages?.close();
  });

  it('counts a timeout as a network error: 3 attempts, each cut at the timeout, recorded on the execution', async () => {
    receiver.behave('hang');
    const res = await hung.run({ webhookUrl: `${receiver.url}/hangs` });
    assert.equal(res.body.status, 'success', 'the receiver does not change the run');
    const report = await hung.webhookOf(res.body.executionId, 60_000);
    assert.equal(report.delivered, false);
    assert.equal(report.attempts, 3);
    assert.equal(report.status, undefined, 'no answer, so no status');
    assert.match(report.error, new RegExp(`did not answer within ${TIMEOUT_MS} ms`));
    assert.ok(report.durationMs >= 3 * TIMEOUT_MS + 300, `three timeouts and two delays (${report.durationMs} ms)`);
    assert.equal(receiver.received.length, 3);
    assert.deepEqual(receiver.received.map((r) => r.headers['x-taskloom-attempt']), ['1', '2', '3']);
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
