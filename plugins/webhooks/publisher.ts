import type { DeliveryRecord, DeliveryStore } from '../../kernel/contracts/deliveries.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { EventBus, RunCallback, ServiceEvent } from '../../layers/events/event-bus.js';
import { traceparentOf } from '../../layers/tracing/tracing.js';
import { wants, type EndpointRecord } from './endpoints.js';
import { newMessageId } from './signing.js';

/** The event type of a run's completion webhook in the delivery log. */
export const CALLBACK_EVENT = 'execution.callback';
/** The event `POST /api/webhooks/{id}/test` sends. */
export const TEST_EVENT = 'webhook.test';

export interface PublisherDeps {
  deliveries: DeliveryStore;
  endpoints(): Promise<EndpointRecord[]>;
  logger: Logger;
  /** Wakes the sender: a stored delivery goes out at once. */
  kick(): void;
}

type NewDelivery = Pick<DeliveryRecord, 'kind' | 'event' | 'payload'> & Partial<Pick<DeliveryRecord, 'endpointId' | 'url' | 'executionId' | 'taskId'>>;

function pending(fields: NewDelivery): DeliveryRecord {
  const now = Date.now();
  // The trace it was published in (a run's): its attempts are spans of that trace, even after a restart.
  const traceparent = traceparentOf();
  return {
    id: newMessageId(), status: 'pending', createdAt: new Date(now).toISOString(), nextAttemptMs: now, attempts: [], ...fields,
    ...(traceparent === undefined ? {} : { traceparent }),
  };
}

/** The body of an event, in the Standard Webhooks shape: `{ type, timestamp, data }`. */
export const eventPayload = (type: string, data: Record<string, unknown>): string =>
  JSON.stringify({ type, timestamp: new Date().toISOString(), data });

/** `app.events`: each event becomes one stored delivery per subscription that wants it, then the sender sends it. */
export function createPublisher(deps: PublisherDeps): EventBus & { toEndpoint(endpoint: EndpointRecord, type: string, data: Record<string, unknown>): Promise<DeliveryRecord> } {
  const { deliveries, logger } = deps;
  const scope = (event: { taskId?: string; data: Record<string, unknown> }) => ({
    ...(event.taskId === undefined ? {} : { taskId: event.taskId }),
    ...(typeof event.data.executionId === 'string' ? { executionId: event.data.executionId } : {}),
  });

  return {
    async publish(event: ServiceEvent): Promise<void> {
      try {
        const targets = (await deps.endpoints()).filter((endpoint) => wants(endpoint, event));
        if (targets.length === 0) return;
        const payload = eventPayload(event.type, event.data);
        for (const endpoint of targets) {
          await deliveries.put(pending({ kind: 'event', event: event.type, endpointId: endpoint.id, payload, ...scope(event) }));
        }
        deps.kick();
      } catch (error) {
        logger.error({ err: error, event: event.type }, 'an event could not be stored for its webhooks: it is not delivered');
      }
    },

    async callback(callback: RunCallback): Promise<void> {
      try {
        await deliveries.put(pending({
          kind: 'callback', event: CALLBACK_EVENT, url: callback.url, executionId: callback.executionId, taskId: callback.taskId,
          payload: JSON.stringify(callback.body),
        }));
        deps.kick();
      } catch (error) {
        logger.error({ err: error, executionId: callback.executionId }, 'a run\'s completion webhook could not be stored: it is not delivered');
      }
    },

    async toEndpoint(endpoint, type, data) {
      const record = await deliveries.put(pending({ kind: 'event', event: type, endpointId: endpoint.id, payload: eventPayload(type, data) }));
      deps.kick();
      return record;
    },
  };
}
