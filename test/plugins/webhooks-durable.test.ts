// Deliveries outlive what goes wrong: a receiver that hangs is cut at the 10 s timeout and tried again, and a
// service killed with SIGKILL between two attempts sends the delivery after its restart (a real process on a
// data directory it keeps), with the same webhook-id and a signature that verifies. Neither answers nor the log
// ever show a signing secret.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startWebhookReceiver, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { makeTempDir, request, setupAdmin, startService, type TestService } from '../support/service.js';
import { waitForDelivery } from '../support/webhooks.js';

describe('a webhook receiver that never answers', () => {
  let svc: TestService;
  let apiKey: string;
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
    // The default per-attempt timeout (10 s); only the back-off is short.
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_POLL_MS: '100' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await receiver?.close();
  });

  it('is cut at 10 s and tried again', async () => {
    const call = (method: string, url: string, body?: unknown) => svc.request(method, url, { apiKey, ...(body === undefined ? {} : { body }) });
    const { id } = (await call('POST', '/api/webhooks', { url: `${receiver.url}/slow`, events: ['execution.queued'] })).body;
    receiver.plan(['hang']);
    const sent = await call('POST', `/api/webhooks/${id}/test`);
    const [first, second] = await receiver.waitFor(2, 60_000);
    assert.ok(second!.at - first!.at >= 9_000, `the second attempt came ${second!.at - first!.at} ms after the first: not before the cut`);
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);
    const log = await waitForDelivery(call, sent.body.id, 'delivered');
    assert.match(log.attempts[0].error, /did not answer within 10000 ms/);
    assert.equal(log.attempts[0].statusCode, undefined);
    assert.ok(log.attempts[0].latencyMs >= 9_500, `cut after ${log.attempts[0].latencyMs} ms`);
    assert.equal(log.attempts[1].statusCode, 200);
  });
});

describe('a webhook delivery across a kill -9 of the service', () => {
  let receiver: WebhookReceiver;
  let service: ServiceProcess | undefined;
  let dataDir: string;
  const env = () => ({
    DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'debug',
    // A first retry 1.5 to 2.5 s after the failure: time enough to kill the service before it.
    WEBHOOK_RETRY_BASE_MS: '2000', WEBHOOK_POLL_MS: '200',
  });
  before(async () => {
    receiver = await startWebhookReceiver();
    dataDir = await makeTempDir();
  });
  after(async () => {
    await service?.stop('SIGKILL');
    await receiver?.close();
  });

  it('arrives after the restart, with the same webhook-id and a verified signature; no secret in answers or log', async () => {
    service = await spawnService(env());
    const first = service;
    const svc = { request: (method: string, url: string, options?: Parameters<typeof request>[3]) => request(first.baseUrl, method, url, options) };
    const { apiKey } = await setupAdmin(svc as unknown as TestService);
    const call = (base: string, method: string, url: string, body?: unknown) => request(base, method, url, { apiKey, ...(body === undefined ? {} : { body }) });
    const created = await call(first.baseUrl, 'POST', '/api/webhooks', { url: `${receiver.url}/durable`, events: ['execution.queued'] });
    assert.equal(created.status, 200, created.text);
    const { id, secret } = created.body;
    receiver.behave(500);
    const sent = await call(first.baseUrl, 'POST', `/api/webhooks/${id}/test`);
    await receiver.waitFor(1, 30_000);
    // Between two attempts: the first is recorded, the second not yet due.
    const pending = await waitForDelivery((m, u) => call(first.baseUrl, m, u), sent.body.id, 'pending');
    assert.equal(pending.attempts[0].statusCode, 500);
    assert.equal(await first.stop('SIGKILL'), null, 'killed, not exited');
    const attemptsBefore = receiver.received.length;
    receiver.behave(200);

    service = await spawnService(env());
    const second = service;
    const hooks = await receiver.waitFor(attemptsBefore + 1, 60_000);
    const arrived = hooks.at(-1)!;
    assert.equal(arrived.headers['webhook-id'], sent.body.id, 'the same webhook-id after the restart');
    const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(arrived.headers[h])]));
    new Webhook(secret).verify(JSON.stringify(arrived.body), headers);
    const log = await waitForDelivery((m, u) => call(second.baseUrl, m, u), sent.body.id, 'delivered');
    assert.equal(log.attempts.at(-1).statusCode, 200);
    assert.ok(log.attempts.length >= 2, `the attempt before the kill is in the log (${log.attempts.length})`);

    const answers = [
      await call(second.baseUrl, 'GET', '/api/webhooks'), await call(second.baseUrl, 'GET', `/api/webhooks/${id}`),
      await call(second.baseUrl, 'GET', '/api/webhooks/deliveries'), await call(second.baseUrl, 'GET', '/api/webhooks/system-secret'),
    ];
    const secretBody = secret.slice('whsec_'.length);
    for (const answer of answers) assert.ok(!answer.text.includes(secretBody), 'no answer shows the secret');
    for (const output of [first.output(), second.output()]) {
      assert.ok(output.includes('webhook'), 'the log speaks of the webhooks');
      assert.ok(!output.includes(secretBody), 'the log never shows the secret');
    }
  });
});
