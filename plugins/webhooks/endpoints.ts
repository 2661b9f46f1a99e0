import crypto from 'node:crypto';
import type { SettingsStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import type { OutboundGuard } from '../../kernel/outbound/index.js';
import type { EventType, ServiceEvent } from '../../layers/events/event-bus.js';
import { maskedPair, rotated, type SecretPair } from './secrets.js';
import { MAX_ENDPOINTS, type EndpointInput, type EndpointPatch, type WebhookEndpoint } from './schemas.js';

/** Settings key of the subscriptions (a secret setting: sealed at rest, with their signing secrets). */
export const ENDPOINTS_KEY = 'webhooks.endpoints';

/** One subscription as stored. */
export interface EndpointRecord extends SecretPair {
  id: string;
  url: string;
  description?: string;
  events: EventType[];
  taskIds?: string[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What an answer shows of a subscription: everything but its secrets. */
export function endpointView(record: EndpointRecord, nowMs = Date.now()): WebhookEndpoint {
  const { secret: _s, previousSecret: _p, previousValidUntil: _u, ...shown } = record;
  return { ...shown, ...maskedPair(record, nowMs) };
}

/** Whether the subscription wants `event`. */
export const wants = (endpoint: EndpointRecord, event: ServiceEvent): boolean =>
  endpoint.enabled && endpoint.events.includes(event.type)
  && (endpoint.taskIds === undefined || (event.taskId !== undefined && endpoint.taskIds.includes(event.taskId)));

/** The subscriptions, kept in one secret setting; every change is one atomic update of it. */
export function createEndpoints(settings: SettingsStore, guard: OutboundGuard) {
  const read = async (): Promise<EndpointRecord[]> => (await settings.get<EndpointRecord[]>(ENDPOINTS_KEY)) ?? [];
  const checkUrl = (url: string) => guard.checkUrl(url, { errorAs: Errors.INVALID_WEBHOOK_URL });
  const change = async <R>(id: string, apply: (record: EndpointRecord) => { record?: EndpointRecord; answer: R }): Promise<R> => {
    let answer: R | undefined;
    let found = false;
    await settings.update<EndpointRecord[]>(ENDPOINTS_KEY, (current = []) => current.flatMap((record) => {
      if (record.id !== id) return [record];
      found = true;
      const result = apply(record);
      answer = result.answer;
      return result.record ? [result.record] : [];
    }));
    if (!found) throw Errors.WEBHOOK_NOT_FOUND({ id });
    return answer as R;
  };

  return {
    read,
    async list(): Promise<WebhookEndpoint[]> {
      return (await read()).map((record) => endpointView(record));
    },
    async get(id: string): Promise<WebhookEndpoint> {
      const record = (await read()).find((r) => r.id === id);
      if (!record) throw Errors.WEBHOOK_NOT_FOUND({ id });
      return endpointView(record);
    },
    /** Answers with the new secret in full: the only time it is shown. */
    async create(input: EndpointInput): Promise<WebhookEndpoint> {
      await checkUrl(input.url);
      const now = new Date().toISOString();
      const record: EndpointRecord = {
        id: `wh_${crypto.randomBytes(9).toString('base64url')}`, ...input, enabled: input.enabled ?? true, createdAt: now, updatedAt: now, ...rotated(undefined, 0),
      };
      await settings.update<EndpointRecord[]>(ENDPOINTS_KEY, (current = []) => {
        if (current.length >= MAX_ENDPOINTS) throw Errors.VALIDATION_ERROR({ message: `At most ${MAX_ENDPOINTS} webhook endpoints: delete one first` });
        return [...current, record];
      });
      return { ...endpointView(record), secret: record.secret };
    },
    async update(id: string, patch: EndpointPatch): Promise<WebhookEndpoint> {
      if (patch.url !== undefined) await checkUrl(patch.url);
      return change(id, (record) => {
        const next = { ...record, ...patch, updatedAt: new Date().toISOString() };
        return { record: next, answer: endpointView(next) };
      });
    },
    async remove(id: string): Promise<void> {
      await change(id, () => ({ answer: undefined }));
    },
    /** A new secret, answered in full once; the replaced one signs too for `graceMs`. */
    async rotate(id: string, graceMs: number): Promise<WebhookEndpoint> {
      return change(id, (record) => {
        const next = { ...record, ...rotated(record, graceMs), updatedAt: new Date().toISOString() };
        if (graceMs <= 0) delete next.previousSecret, delete next.previousValidUntil;
        return { record: next, answer: { ...endpointView(next), secret: next.secret } };
      });
    },
  };
}

export type Endpoints = ReturnType<typeof createEndpoints>;
