// Two instances on one PostgreSQL storage share the delivery log: each sees the other's pending deliveries, and the
// attempt claims keep every attempt to one sender, so no attempt reaches the receiver twice.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startWebhookReceiver, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { waitForDelivery } from '../support/webhooks.js';

const skip = await postgresUnavailable();
if (skip) console.log(`# skipped webhook deliveries across instances: ${skip}`);

describe('webhook deliveries with two instances on one PostgreSQL', { skip, timeout: 120_000 }, () => {
  let db: TestDatabase;
  let a: TestService;
  let b: TestService;
  let apiKey: string;
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
    db = await createTestDatabase('taskloom_webhooks');
    const env = {
      STORAGE: 'postgres', DATABASE_URL: db.url(), ALLOW_PRIVATE_NETWORKS: 'true', SECRETS_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_RETRY_MAX_DELAY_MS: '100', WEBHOOK_POLL_MS: '50',
    };
    a = await startService(env);
    b = await startService(env);
    ({ apiKey } = await setupAdmin(a));
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('sends each attempt once, from either instance, and every delivery arrives', async () => {
    const call = (svc: TestService, method: string, url: string, body?: unknown) => svc.request(method, url, { apiKey, ...(body === undefined ? {} : { body }) });
    const { id } = (await call(a, 'POST', '/api/webhooks', { url: `${receiver.url}/shared`, events: ['execution.queued'] })).body;
    receiver.plan([500, 500, 500, 500]);
    const sent: string[] = [];
    for (let i = 0; i < 10; i++) sent.push((await call(i % 2 ? a : b, 'POST', `/api/webhooks/${id}/test`)).body.id as string);
    for (const delivery of sent) await waitForDelivery((m, u) => call(b, m, u), delivery, 'delivered');
    const log = (await call(a, 'GET', '/api/webhooks/deliveries?limit=100')).body.deliveries as Array<{ id: string; attempts: unknown[] }>;
    const attempts = log.filter((d) => sent.includes(d.id)).reduce((sum, d) => sum + d.attempts.length, 0);
    assert.equal(attempts, 14, 'ten deliveries, four of their attempts answered 500');
    assert.equal(receiver.received.length, attempts, 'the receiver got exactly the attempts in the log');
    const keys = receiver.received.map((r) => `${r.headers['webhook-id']}#${r.headers['x-taskloom-attempt']}`);
    assert.equal(new Set(keys).size, keys.length, 'no attempt was sent twice');
    assert.deepEqual(new Set(receiver.received.map((r) => r.headers['webhook-id'])), new Set(sent));
  });
});
