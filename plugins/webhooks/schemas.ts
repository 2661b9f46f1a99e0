import { Type, type Static } from 'typebox';
import { namedSchema } from '../../kernel/http/named-schema.js';
import { EVENT_TYPES } from '../../layers/events/event-bus.js';

export { ErrorBody } from '../../kernel/http/error-body.js';

/** Limits of the stored subscriptions. */
export const MAX_ENDPOINTS = 100;
const MAX_TASK_IDS = 500;

const EventType = Type.Unsafe<(typeof EVENT_TYPES)[number]>(Type.Enum([...EVENT_TYPES]));
const DateTime = Type.String({ description: 'ISO 8601' });

const endpointFields = {
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'receives a POST per event; checked against the outbound rule' }),
  description: Type.Optional(Type.String({ maxLength: 200 })),
  events: Type.Array(EventType, { minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true }),
  taskIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    maxItems: MAX_TASK_IDS, uniqueItems: true, description: 'only events of these tasks; absent: every task',
  })),
  enabled: Type.Optional(Type.Boolean({ default: true })),
};

export const EndpointBody = Type.Object(endpointFields, { additionalProperties: false });
export type EndpointInput = Static<typeof EndpointBody>;
export const EndpointPatchBody = Type.Partial(Type.Object(endpointFields), { additionalProperties: false });
export type EndpointPatch = Static<typeof EndpointPatchBody>;

/** A subscription as answered: its secret masked (shown in full only when created or rotated). */
export const WebhookEndpoint = namedSchema('WebhookEndpoint', Type.Object({
  id: Type.String(),
  ...endpointFields,
  enabled: Type.Boolean(),
  secret: Type.String({ description: '******** except in the answer that created or rotated it' }),
  previousSecretValidUntil: Type.Optional(Type.String({ description: 'ISO 8601: until then the replaced secret signs too' })),
  createdAt: DateTime,
  updatedAt: DateTime,
}));
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const Success = Type.Object({ success: Type.Literal(true) });
export const EndpointList = Type.Object({ endpoints: Type.Array(WebhookEndpoint) });
export const EndpointParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const RotateBody = Type.Object({
  graceSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 30 * 24 * 3600, description: 'how long the replaced secret signs too; default WEBHOOK_SECRET_GRACE_MS' })),
}, { additionalProperties: false });

/** The system secret that signs runs' completion webhooks: masked, except in the answer that generated it. */
export const SystemSecret = Type.Object({
  configured: Type.Boolean(),
  secret: Type.Optional(Type.String()),
  previousSecretValidUntil: Type.Optional(Type.String()),
});

const DeliveryAttempt = Type.Object({
  at: DateTime,
  statusCode: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
  latencyMs: Type.Number(),
  excerpt: Type.Optional(Type.String({ description: 'the first 200 characters of the answer' })),
});

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WebhookDelivery = namedSchema('WebhookDelivery', Type.Object({
  id: Type.String({ description: 'the webhook-id header, the same on every attempt' }),
  kind: Type.String({ description: 'event | callback' }),
  event: Type.String(),
  endpointId: Type.Optional(Type.String()),
  target: Type.String({ description: 'the receiver\'s origin (never its path or query, which may carry a token)' }),
  executionId: Type.Optional(Type.String()),
  taskId: Type.Optional(Type.String()),
  status: Type.String({ description: 'pending | delivered | failed' }),
  createdAt: DateTime,
  settledAt: Type.Optional(DateTime),
  nextAttemptAt: Type.Optional(Type.String({ description: 'ISO 8601, while pending' })),
  attempts: Type.Array(DeliveryAttempt),
}));
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const DeliveryQuerystring = Type.Object({
  endpointId: Type.Optional(Type.String({ maxLength: 200 })),
  event: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(Type.Enum([...DELIVERY_STATUSES])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
}, { additionalProperties: false });
export const DeliveryList = Type.Object({ deliveries: Type.Array(WebhookDelivery) });
