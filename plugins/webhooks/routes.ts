import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DeliveryStore } from '../../kernel/contracts/deliveries.js';
import { Errors } from '../../kernel/errors.js';
import { deliveryView } from './delivery-view.js';
import type { Endpoints } from './endpoints.js';
import { TEST_EVENT, type createPublisher } from './publisher.js';
import {
  DeliveryList, DeliveryQuerystring, EndpointBody, EndpointList, EndpointParams, EndpointPatchBody, ErrorBody, RotateBody, Success,
  SystemSecret as SystemSecretBody, WebhookDelivery, WebhookEndpoint,
} from './schemas.js';
import type { SystemSecret } from './system-secret.js';

export interface WebhookRouteDeps {
  endpoints: Endpoints;
  deliveries: DeliveryStore;
  systemSecret: SystemSecret;
  publisher: ReturnType<typeof createPublisher>;
  /** A rotation's default grace (WEBHOOK_SECRET_GRACE_MS). */
  graceMs: number;
  kick(): void;
}

const tags = ['webhooks'];
const config = { auth: 'authenticated' } as const;
const errors = (...list: Array<(typeof Errors)[keyof typeof Errors]>) => ({ ...config, errors: list });
const answers = <T>(ok: T, ...statuses: (400 | 404)[]) => ({ 200: ok, ...Object.fromEntries(statuses.map((s) => [s, ErrorBody])) });

/** `/api/webhooks`: subscriptions, their secrets, the system secret and the delivery log. */
export async function webhookRoutes(scope: FastifyInstance, deps: WebhookRouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { endpoints, deliveries } = deps;
  const endpointUrls = async () => new Map((await endpoints.read()).map((e) => [e.id, e.url]));

  app.get('/', {
    config: { ...config, access: 'read' }, schema: { tags, operationId: 'listWebhookEndpoints', summary: 'The webhook subscriptions (secrets masked)', response: answers(EndpointList) },
  }, async () => ({ endpoints: await endpoints.list() }));

  app.post('/', {
    config: { ...errors(Errors.INVALID_WEBHOOK_URL), access: 'write' },
    schema: { tags, operationId: 'createWebhookEndpoint', summary: 'Subscribe a URL to events; the answer shows its signing secret, once', body: EndpointBody, response: answers(WebhookEndpoint, 400) },
  }, async (request) => endpoints.create(request.body));

  app.get('/deliveries', {
    config: { ...config, access: 'read' },
    schema: { tags, operationId: 'listWebhookDeliveries', summary: 'The delivery log, newest first: attempts, status codes, latency, answer excerpts', querystring: DeliveryQuerystring, response: answers(DeliveryList, 400) },
  }, async (request) => {
    const { limit = 50, offset = 0, ...filter } = request.query;
    const urls = await endpointUrls();
    const found = await deliveries.find({ ...filter, limit, offset });
    return { deliveries: found.map((record) => deliveryView(record, record.endpointId && urls.get(record.endpointId))) };
  });

  app.post('/deliveries/:id/redeliver', {
    config: { ...errors(Errors.DELIVERY_NOT_FOUND), access: 'write' },
    schema: { tags, operationId: 'redeliverWebhook', summary: 'Send a delivery again now (same webhook-id), retried as a new one', params: EndpointParams, response: answers(WebhookDelivery, 400, 404) },
  }, async (request) => {
    const now = Date.now();
    const record = await deliveries.update(request.params.id, ({ settledAt: _settled, ...current }) => ({
      ...current, status: 'pending', nextAttemptMs: now, retryingSince: new Date(now).toISOString(),
    }));
    if (!record) throw Errors.DELIVERY_NOT_FOUND({ id: request.params.id });
    deps.kick();
    return deliveryView(record, record.endpointId && (await endpointUrls()).get(record.endpointId));
  });

  app.get('/system-secret', {
    config: { ...config, access: 'admin' }, schema: { tags, operationId: 'getSystemWebhookSecret', summary: 'Whether the secret signing runs\' completion webhooks exists (masked)', response: answers(SystemSecretBody) },
  }, async () => deps.systemSecret.view());

  app.post('/system-secret', {
    config: { ...config, access: 'admin' }, preValidation: emptyBody,
    schema: { tags, operationId: 'generateSystemWebhookSecret', summary: 'A new secret for runs\' completion webhooks, shown once; the old one signs too for the grace period', body: RotateBody, response: answers(SystemSecretBody, 400) },
  }, async (request) => deps.systemSecret.generate(graceOf(request.body?.graceSeconds, deps.graceMs)));

  app.get('/:id', {
    config: { ...errors(Errors.WEBHOOK_NOT_FOUND), access: 'read' },
    schema: { tags, operationId: 'getWebhookEndpoint', summary: 'One subscription (secret masked)', params: EndpointParams, response: answers(WebhookEndpoint, 404) },
  }, async (request) => endpoints.get(request.params.id));

  app.patch('/:id', {
    config: { ...errors(Errors.INVALID_WEBHOOK_URL, Errors.WEBHOOK_NOT_FOUND), access: 'write' },
    schema: { tags, operationId: 'updateWebhookEndpoint', summary: 'Change a subscription (URL, events, tasks, enabled)', params: EndpointParams, body: EndpointPatchBody, response: answers(WebhookEndpoint, 400, 404) },
  }, async (request) => endpoints.update(request.params.id, request.body));

  app.delete('/:id', {
    config: { ...errors(Errors.WEBHOOK_NOT_FOUND), access: 'write' },
    schema: { tags, operationId: 'deleteWebhookEndpoint', summary: 'Delete a subscription (its pending deliveries then fail)', params: EndpointParams, response: answers(Success, 404) },
  }, async (request) => {
    await endpoints.remove(request.params.id);
    return { success: true as const };
  });

  app.post('/:id/rotate-secret', {
    config: { ...errors(Errors.WEBHOOK_NOT_FOUND), access: 'write' }, preValidation: emptyBody,
    schema: { tags, operationId: 'rotateWebhookSecret', summary: 'A new signing secret, shown once; the old one signs too for the grace period', params: EndpointParams, body: RotateBody, response: answers(WebhookEndpoint, 400, 404) },
  }, async (request) => endpoints.rotate(request.params.id, graceOf(request.body?.graceSeconds, deps.graceMs)));

  app.post('/:id/test', {
    config: { ...errors(Errors.WEBHOOK_NOT_FOUND), access: 'write' },
    schema: { tags, operationId: 'testWebhookEndpoint', summary: `Send a \`${TEST_EVENT}\` event to this endpoint (stored and retried as any delivery)`, params: EndpointParams, response: answers(WebhookDelivery, 404) },
  }, async (request) => {
    const endpoint = (await endpoints.read()).find((e) => e.id === request.params.id);
    if (!endpoint) throw Errors.WEBHOOK_NOT_FOUND({ id: request.params.id });
    const record = await deps.publisher.toEndpoint(endpoint, TEST_EVENT, { endpointId: endpoint.id, message: 'a test event from taskloom' });
    return deliveryView(record, endpoint.url);
  });
}

/** A rotation may be asked without a body: it is `{}` before validation. */
const emptyBody = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};
const graceOf = (seconds: number | undefined, fallbackMs: number): number => (seconds === undefined ? fallbackMs : seconds * 1000);
