// Webhook subscriptions and their deliveries on a real service: CRUD with masked secrets, a receiver failing five
// times then accepting (one acceptance, one webhook-id, a signature the standardwebhooks library verifies),
// Retry-After, rotation (both secrets sign), redelivery, final 4xx, and the retry horizon. Back-off is shortened
// by the plugin's own variables, so no test waits minutes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { sleep, waitForDelivery } from '../support/webhooks.js';

const FAST = { ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_RETRY_MAX_DELAY_MS: '200', WEBHOOK_POLL_MS: '100' };

const headersOf = (hook: ReceivedWebhook) => Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(hook.headers[h])]));
const rawBody = (hook: ReceivedWebhook) => JSON.stringify(hook.body);

describe('webhook subscriptions and deliveries', () => {
  let svc: TestService;
  let apiKey: string;
  let receiver: WebhookReceiver;
  const call = (method: string, url: string, body?: unknown) => svc.request(method, url, { apiKey, ...(body === undefined ? {} : { body }) });
  before(async () => {
    receiver = await startWebhookReceiver();
    svc = await startService({ ...FAST, WEBHOOK_RETRY_HORIZON_MS: '60000' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await receiver?.close();
  });
  const fresh = () => {
    receiver.received.length = 0;
    receiver.behave(200);
  };

  it('creates, lists, changes and deletes subscriptions; the secret is shown once, then masked', async () => {
    const created = await call('POST', '/api/webhooks', { url: `${receiver.url}/a`, events: ['execution.succeeded', 'execution.failed'], description: 'ops' });
    assert.equal(created.status, 200, created.text);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/=]{40,}$/);
    assert.deepEqual([created.body.enabled, created.body.events], [true, ['execution.succeeded', 'execution.failed']]);
    const { id, secret } = created.body;
    for (const read of [await call('GET', '/api/webhooks'), await call('GET', `/api/webhooks/${id}`)]) {
      assert.equal(read.status, 200);
      assert.doesNotMatch(read.text, new RegExp(secret.slice(6, 30).replace(/[+/]/g, '.')), 'the secret is never shown again');
      assert.match(read.text, /\*{8}/);
    }
    const patched = await call('PATCH', `/api/webhooks/${id}`, { enabled: false, taskIds: ['task_x'] });
    assert.deepEqual([patched.status, patched.body.enabled, patched.body.taskIds], [200, false, ['task_x']]);
    assert.equal((await call('DELETE', `/api/webhooks/${id}`)).status, 200);
    const gone = await call('GET', `/api/webhooks/${id}`);
    assert.deepEqual([gone.status, gone.body.error], [404, 'WEBHOOK_NOT_FOUND']);
    assert.match(gone.body.details, new RegExp(id));
  });

  it('refuses bad input with 4xx { error, details }', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ url: 'not a url', events: ['execution.started'] }, 400, 'INVALID_WEBHOOK_URL'],
      [{ url: 'ftp://example.com/x', events: ['execution.started'] }, 400, 'INVALID_WEBHOOK_URL'],
      [{ url: `${receiver.url}/x`, events: [] }, 400, 'VALIDATION_ERROR'],
      [{ url: `${receiver.url}/x`, events: ['no.such.event'] }, 400, 'VALIDATION_ERROR'],
      [{ url: `${receiver.url}/x`, events: ['execution.started'], secret: 'mine' }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [body, status, error] of cases) {
      const res = await call('POST', '/api/webhooks', body);
      assert.deepEqual([res.status, res.body.error], [status, error], JSON.stringify(body));
      assert.equal(typeof res.body.details, 'string');
    }
    assert.equal((await call('PATCH', '/api/webhooks/wh_none', { enabled: true })).body.error, 'WEBHOOK_NOT_FOUND');
    assert.equal((await call('POST', '/api/webhooks/deliveries/msg_none/redeliver')).body.error, 'DELIVERY_NOT_FOUND');
    assert.equal((await call('GET', '/api/webhooks/deliveries?status=lost')).status, 400);
  });

  it('a receiver failing five times then accepting gets it once more: the same webhook-id, a signature that verifies', async () => {
    fresh();
    const { id, secret } = (await call('POST', '/api/webhooks', { url: `${receiver.url}/flaky?token=t0k3n`, events: ['execution.queued'] })).body;
    receiver.plan([500, 502, 503, 500, 408]);
    const sent = await call('POST', `/api/webhooks/${id}/test`);
    assert.equal(sent.status, 200, sent.text);
    const hooks = await receiver.waitFor(6, 30_000);
    await sleep(500);
    assert.equal(receiver.received.length, 6, 'accepted once: no attempt after the acceptance');
    assert.deepEqual(new Set(hooks.map((h) => h.headers['webhook-id'])), new Set([sent.body.id]), 'one webhook-id on every attempt');
    assert.deepEqual(hooks.map((h) => h.headers['x-taskloom-attempt']), ['1', '2', '3', '4', '5', '6']);
    const accepted = hooks[5]!;
    const verified = new Webhook(secret).verify(rawBody(accepted), headersOf(accepted)) as { type: string };
    assert.equal(verified.type, 'webhook.test');
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(rawBody(accepted), headersOf(accepted)), 'another secret does not verify');
    const log = await waitForDelivery(call, sent.body.id, 'delivered');
    assert.deepEqual(log.attempts.map((a: { statusCode: number }) => a.statusCode), [500, 502, 503, 500, 408, 200]);
    assert.ok(log.attempts.every((a: { latencyMs: number }) => a.latencyMs >= 0));
    assert.match(log.attempts[5].excerpt, /"ok":true/);
    assert.equal(log.target, receiver.url, 'the log shows the origin, never the path or query');
    assert.doesNotMatch(JSON.stringify(log), /t0k3n/);
    const filtered = await call('GET', `/api/webhooks/deliveries?endpointId=${id}&status=delivered&event=webhook.test`);
    assert.deepEqual(filtered.body.deliveries.map((d: { id: string }) => d.id), [sent.body.id]);
  });

  it('honours Retry-After, and a 4xx other than 408 and 429 is final', async () => {
    fresh();
    const { id } = (await call('POST', '/api/webhooks', { url: `${receiver.url}/busy`, events: ['execution.queued'] })).body;
    receiver.plan([{ status: 429, headers: { 'retry-after': '2' } }]);
    const sent = await call('POST', `/api/webhooks/${id}/test`);
    const [first, second] = await receiver.waitFor(2, 30_000);
    assert.ok(second!.at - first!.at >= 1_900, `waited ${second!.at - first!.at} ms for Retry-After: 2 (the back-off alone is 50 ms)`);
    assert.equal((await waitForDelivery(call, sent.body.id, 'delivered')).attempts.length, 2);

    fresh();
    receiver.behave(400);
    const refused = await call('POST', `/api/webhooks/${id}/test`);
    const failed = await waitForDelivery(call, refused.body.id, 'failed');
    assert.deepEqual(failed.attempts.map((a: { statusCode: number }) => a.statusCode), [400]);
    await sleep(500);
    assert.equal(receiver.received.length, 1, 'not tried again');
  });

  it('rotates a secret: during the grace period both sign, each verifies', async () => {
    fresh();
    const created = (await call('POST', '/api/webhooks', { url: `${receiver.url}/rot`, events: ['execution.queued'] })).body;
    const rotated = await call('POST', `/api/webhooks/${created.id}/rotate-secret`, { graceSeconds: 3600 });
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.secret, created.secret);
    assert.ok(Date.parse(rotated.body.previousSecretValidUntil) > Date.now() + 3_500_000);
    assert.equal((await call('GET', `/api/webhooks/${created.id}`)).body.secret, '********');
    await call('POST', `/api/webhooks/${created.id}/test`);
    const [hook] = await receiver.waitFor(1);
    assert.equal(String(hook!.headers['webhook-signature']).split(' ').length, 2, 'two signatures, space-separated');
    for (const secret of [created.secret, rotated.body.secret]) new Webhook(secret).verify(rawBody(hook!), headersOf(hook!));

    fresh();
    const replaced = await call('POST', `/api/webhooks/${created.id}/rotate-secret`, { graceSeconds: 0 });
    await call('POST', `/api/webhooks/${created.id}/test`);
    const [after] = await receiver.waitFor(1);
    assert.equal(String(after!.headers['webhook-signature']).split(' ').length, 1);
    new Webhook(replaced.body.secret).verify(rawBody(after!), headersOf(after!));
    assert.throws(() => new Webhook(rotated.body.secret).verify(rawBody(after!), headersOf(after!)), 'no grace: the old one is gone');
  });

  it('redelivers a delivery on request, with the same webhook-id', async () => {
    fresh();
    const { id } = (await call('POST', '/api/webhooks', { url: `${receiver.url}/again`, events: ['execution.queued'] })).body;
    const sent = await call('POST', `/api/webhooks/${id}/test`);
    await waitForDelivery(call, sent.body.id, 'delivered');
    const again = await call('POST', `/api/webhooks/deliveries/${sent.body.id}/redeliver`);
    assert.deepEqual([again.status, again.body.status], [200, 'pending'], again.text);
    const hooks = await receiver.waitFor(2);
    assert.equal(hooks[1]!.headers['webhook-id'], sent.body.id);
    assert.deepEqual(hooks[1]!.body, hooks[0]!.body, 'the same body');
    assert.equal((await waitForDelivery(call, sent.body.id, 'delivered', 2)).attempts.length, 2);
  });

  it('the system secret signs runs\' callbacks: shown once when generated, masked after', async () => {
    const before = await call('GET', '/api/webhooks/system-secret');
    assert.equal(before.status, 200);
    const made = await call('POST', '/api/webhooks/system-secret', {});
    assert.match(made.body.secret, /^whsec_/);
    const read = await call('GET', '/api/webhooks/system-secret');
    assert.deepEqual([read.body.configured, read.body.secret], [true, '********']);
  });
});

describe('webhook deliveries past their horizon', () => {
  let svc: TestService;
  let apiKey: string;
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
    svc = await startService({ ...FAST, WEBHOOK_RETRY_HORIZON_MS: '1000' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await receiver?.close();
  });

  it('a receiver that keeps failing: retried until the horizon, then failed', async () => {
    receiver.behave(503);
    const call = (method: string, url: string, body?: unknown) => svc.request(method, url, { apiKey, ...(body === undefined ? {} : { body }) });
    const { id } = (await call('POST', '/api/webhooks', { url: `${receiver.url}/down`, events: ['execution.queued'] })).body;
    const sent = await call('POST', `/api/webhooks/${id}/test`);
    const failed = await waitForDelivery(call, sent.body.id, 'failed');
    assert.ok(failed.attempts.length >= 2, `retried (${failed.attempts.length} attempts)`);
    const lastStart = Date.parse(failed.attempts.at(-1).at);
    assert.ok(lastStart <= Date.parse(failed.createdAt) + 1000, 'no attempt started after the horizon');
  });
});
