import type { DeliveryRecord } from '../../kernel/contracts/deliveries.js';
import type { WebhookDelivery } from './schemas.js';
import { targetOf } from './sender.js';

/** A delivery as answered: its receiver's origin only, never its payload's secrets or a callback URL's token. */
export function deliveryView(record: DeliveryRecord, endpointUrl?: string): WebhookDelivery {
  const view: WebhookDelivery = {
    id: record.id, kind: record.kind, event: record.event, target: targetOf(record.url ?? endpointUrl),
    status: record.status, createdAt: record.createdAt, attempts: record.attempts,
  };
  if (record.endpointId !== undefined) view.endpointId = record.endpointId;
  if (record.executionId !== undefined) view.executionId = record.executionId;
  if (record.taskId !== undefined) view.taskId = record.taskId;
  if (record.settledAt !== undefined) view.settledAt = record.settledAt;
  if (record.status === 'pending') view.nextAttemptAt = new Date(record.nextAttemptMs).toISOString();
  return view;
}
