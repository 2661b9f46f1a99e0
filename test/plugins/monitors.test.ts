// The monitor template end to end, on a real service, Chromium and a local receiver: POST /api/monitors makes a
// task that reads one value, compares it run to run, and a webhook subscription to its execution.changed only;
// the page's value changes between runs and exactly one signed execution.changed arrives, none while unchanged.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startWebhookReceiver, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const shop = { price: '10.00' as string | null };

describe('monitors: watch one value, told only on change', { skip: chromium.skip }, () => {
  let svc: TestService;
  let site: http.Server;
  let origin: string;
  let receiver: WebhookReceiver;
  let apiKey: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const run = async (taskId: string) => {
    const res = await api('POST', `/api/tasks/${taskId}/api`);
    assert.equal(res.status, 200, res.text);
    return (await api('GET', `/api/executions/${res.body.executionId}`)).body;
  };
  const changes = () => receiver.received.filter((hook) => hook.body?.type === 'execution.changed');

  before(async () => {
    site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>
<h1>Kettle</h1>${shop.price === null ? '<p>Sold out</p>' : `<p class="price">\n  € ${shop.price}  </p>`}</body></html>`));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    receiver = await startWebhookReceiver();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_MS: '100' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await receiver?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('refuses bad input; a refused webhook URL leaves no task behind; anonymous callers get 401', async () => {
    const before = (await api('GET', '/api/tasks/list')).body;
    const missing = await api('POST', '/api/monitors', { body: { url: `${origin}/` } });
    assert.deepEqual([missing.status, missing.body.error], [400, 'VALIDATION_ERROR']);
    const badHook = await api('POST', '/api/monitors', { body: { url: `${origin}/`, selector: '.price', webhookUrl: 'ftp://example.com/x' } });
    assert.deepEqual([badHook.status, badHook.body.error], [400, 'INVALID_WEBHOOK_URL'], badHook.text);
    assert.match(badHook.body.details, /^the webhook subscription: /);
    assert.deepEqual((await api('GET', '/api/tasks/list')).body, before, 'the task made first was removed');
    const badCron = await api('POST', '/api/monitors', { body: { url: `${origin}/`, selector: '.price', cron: 'every tuesday' } });
    assert.deepEqual([badCron.status, badCron.body.error], [400, 'INVALID_SCHEDULE'], badCron.text);
    assert.match(badCron.body.details, /^the schedule: /);
    assert.deepEqual((await api('GET', '/api/tasks/list')).body, before);
    const anonymous = await svc.request('POST', '/api/monitors', { body: { url: `${origin}/`, selector: '.price' } });
    assert.equal(anonymous.status, 401);
  });

  it('makes a scheduled task and a subscription; one execution.changed when the value changes, none otherwise', async () => {
    shop.price = '10.00';
    const made = await api('POST', '/api/monitors', { body: { url: `${origin}/kettle`, selector: '.price', everyMinutes: 60, webhookUrl: `${receiver.url}/hook` } });
    assert.equal(made.status, 200, made.text);
    const { task, webhook, schedule } = made.body;
    assert.equal(typeof schedule.nextRun, 'number', 'scheduled at once');
    assert.match(schedule.description, /60 minutes|hour/i);
    assert.equal(task.name, `Monitor ${new URL(origin).host}/kettle`);
    assert.match(webhook.secret, /^whsec_/, 'the signing secret is shown this once');
    const stored = (await api('GET', `/api/tasks/${task.id}`)).body;
    assert.deepEqual(stored.compare, { key: ['selector'] });
    assert.deepEqual([stored.schedule.frequency, stored.schedule.intervalMinutes, stored.schedule.enabled], ['interval', 60, true]);
    const endpoint = (await api('GET', `/api/webhooks/${webhook.id}`)).body;
    assert.deepEqual([endpoint.events, endpoint.taskIds], [['execution.changed'], [task.id]]);

    const first = await run(task.id);
    assert.equal(first.status, 'success', JSON.stringify(first.result));
    assert.deepEqual(first.result.data, { selector: '.price', value: '€ 10.00' });
    const same = await run(task.id);
    assert.equal(same.changed, false);

    shop.price = '12.50';
    const raised = await run(task.id);
    assert.equal(raised.changed, true);
    assert.deepEqual(raised.diff.rows, [{ key: { selector: '.price' }, fields: { value: { old: '€ 10.00', new: '€ 12.50' } } }]);
    const [hook] = await receiver.waitFor(1, 30_000);
    assert.equal(hook!.body.type, 'execution.changed');
    assert.equal(hook!.body.data.executionId, raised.executionId);
    const raw = JSON.stringify(hook!.body);
    // Signed with the subscription's secret (Standard Webhooks).
    assert.doesNotThrow(() => new Webhook(webhook.secret).verify(raw, hook!.headers as Record<string, string>));

    const again = await run(task.id);
    assert.equal(again.changed, false);
    shop.price = null; // the value is gone: a failed run, not a change
    const gone = await run(task.id);
    assert.equal(gone.status, 'error');
    assert.match(gone.result.error.message, /\.price/);
    // The deliveries are recorded before their first attempt: after the runs' ends, only the one is there.
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const log = (await api('GET', `/api/webhooks/deliveries?endpointId=${webhook.id}`)).body.deliveries;
    assert.deepEqual(log.map((d: { executionId: string }) => d.executionId), [raised.executionId]);
    assert.equal(changes().length, 1);
  });
});
