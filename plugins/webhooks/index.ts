import crypto from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { definePlugin } from '../../kernel/plugin.js';
import '../../layers/events/event-bus.js';
import { createEndpoints } from './endpoints.js';
import { memoryDeliveries } from './memory-deliveries.js';
import { createPublisher } from './publisher.js';
import { webhookRoutes } from './routes.js';
import { signingSecrets } from './secrets.js';
import { createSender } from './sender.js';
import { createSystemSecret } from './system-secret.js';
import { callbackReport } from './callback-report.js';

const PREFIX = '/api/webhooks';
const HOUR_MS = 3_600_000;

const settings = Type.Object({
  /** Per attempt, the answer included (the spec's 10 s). */
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000 }),
  /** The wait before the 2nd attempt; each later one doubles (with jitter), up to WEBHOOK_RETRY_MAX_DELAY_MS. */
  WEBHOOK_RETRY_BASE_MS: Type.Integer({ minimum: 10, maximum: HOUR_MS, default: 5_000 }),
  WEBHOOK_RETRY_MAX_DELAY_MS: Type.Integer({ minimum: 10, maximum: 24 * HOUR_MS, default: HOUR_MS }),
  /** No attempt starts later than this after the delivery was created (or redelivered): it is then `failed`. */
  WEBHOOK_RETRY_HORIZON_MS: Type.Integer({ minimum: 1_000, maximum: 30 * 24 * HOUR_MS, default: 24 * HOUR_MS }),
  /** How long a replaced signing secret signs too, after a rotation. */
  WEBHOOK_SECRET_GRACE_MS: Type.Integer({ minimum: 0, maximum: 30 * 24 * HOUR_MS, default: 24 * HOUR_MS }),
  /** How often due deliveries are looked for (other instances' retries, deliveries left by a restart). */
  WEBHOOK_POLL_MS: Type.Integer({ minimum: 50, maximum: 60_000, default: 1_000 }),
  /** Attempts under way at once in this instance. */
  WEBHOOK_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 256, default: 32 }),
  /** Delivered and failed deliveries are kept this many days in the log. */
  WEBHOOK_LOG_DAYS: Type.Integer({ minimum: 1, maximum: 365, default: 14 }),
});
type Settings = Static<typeof settings>;

async function webhooks(app: FastifyInstance, options: { prefix?: string; config: Settings }): Promise<void> {
  const { services } = app;
  const { config } = options;
  const logger = services.logger.child({ plugin: 'webhooks' });
  const deliveries = services.storage.deliveries ?? memoryDeliveries();
  if (!services.storage.deliveries) {
    logger.warn({ storage: services.storage.kind }, 'this storage keeps no webhook deliveries (contract 2.5): they are kept in memory and lost at a restart');
  }
  const endpoints = createEndpoints(services.storage.settings, services.outbound.guard);
  const systemSecret = createSystemSecret(services.storage.settings);
  const sender = createSender({
    deliveries, claims: services.storage.claims, client: services.outbound.client, logger,
    policy: { baseDelayMs: config.WEBHOOK_RETRY_BASE_MS, maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS, horizonMs: config.WEBHOOK_RETRY_HORIZON_MS },
    timeoutMs: config.WEBHOOK_TIMEOUT_MS, pollMs: config.WEBHOOK_POLL_MS, concurrency: config.WEBHOOK_CONCURRENCY,
    owner: `webhooks-${process.pid}-${crypto.randomBytes(6).toString('hex')}`,
    async destinationOf(record) {
      if (record.kind === 'callback') return record.url === undefined ? undefined : { url: record.url, secrets: await systemSecret.signing() };
      const endpoint = (await endpoints.read()).find((e) => e.id === record.endpointId);
      return endpoint && { url: endpoint.url, secrets: signingSecrets(endpoint) };
    },
    settled: (record) => callbackReport(services.storage.executions, record),
  });
  const publisher = createPublisher({ deliveries, endpoints: endpoints.read, logger, kick: sender.kick });
  app.decorate('events', { publish: publisher.publish, callback: publisher.callback });

  let pruner: NodeJS.Timeout | undefined;
  const prune = () => void deliveries.deleteSettledBefore(new Date(Date.now() - config.WEBHOOK_LOG_DAYS * 24 * HOUR_MS).toISOString())
    .catch((error: unknown) => logger.warn({ err: error }, 'pruning the webhook delivery log failed; trying again in an hour'));
  // Once the service is up: deliveries a restart left pending go out from now on.
  app.addHook('onReady', async () => {
    sender.start();
    prune();
    pruner = setInterval(prune, HOUR_MS).unref();
  });
  app.addHook('preClose', async () => {
    clearInterval(pruner);
    await sender.stop();
  });
  await app.register(webhookRoutes, {
    prefix: options.prefix || PREFIX, endpoints, deliveries, systemSecret, publisher, graceMs: config.WEBHOOK_SECRET_GRACE_MS, kick: sender.kick,
  });
}

/**
 * Webhook subscriptions, signed (Standard Webhooks) and durable deliveries with retries, and `app.events`, where
 * other plugins publish what happened (runs queued, started, ended ...).
 */
export const webhooksPlugin = definePlugin({
  name: 'webhooks',
  prefix: PREFIX,
  configSchema: settings,
  decorates: ['events'],
  plugin: fp(webhooks, {
    name: 'taskloom-webhooks',
    fastify: '5.x',
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler'],
    decorators: { fastify: ['services'] },
  }),
});
