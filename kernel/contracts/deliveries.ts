/**
 * Webhook deliveries as stored (contract 2.5): one record per message to one receiver, written before the first
 * attempt and updated after each, so a delivery survives a restart and any instance may carry on with it.
 * Timestamps are ISO 8601 strings unless the name ends in `Ms` (epoch milliseconds).
 */

/** `pending` until an attempt is accepted (`delivered`) or the retry horizon passed (`failed`). */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One HTTP attempt of a delivery. */
export interface DeliveryAttempt {
  at: string;
  /** The receiver's HTTP status, when it answered. */
  statusCode?: number;
  /** Why the attempt failed (network error, timeout, status), absent when accepted. */
  error?: string;
  latencyMs: number;
  /** The first bytes of the receiver's answer (at most 200 characters). */
  excerpt?: string;
}

export interface DeliveryRecord {
  /** Also the `webhook-id` header, the same on every attempt, so a receiver can deduplicate. */
  id: string;
  /** `event`: to a subscription (`endpointId`); `callback`: a run's completion webhook (`webhookUrl`). */
  kind: 'event' | 'callback';
  /** The event type (`execution.succeeded`, ...); `execution.callback` for a run's completion webhook. */
  event: string;
  endpointId?: string;
  /** A callback's URL (it may carry a token: never answered, only its origin). Subscriptions: the endpoint's. */
  url?: string;
  executionId?: string;
  taskId?: string;
  /** The body, exactly as sent on every attempt. */
  payload: string;
  status: DeliveryStatus;
  createdAt: string;
  /** Epoch ms from which the next attempt is due (pending only). */
  nextAttemptMs: number;
  attempts: DeliveryAttempt[];
  /** When it was delivered or given up. */
  settledAt?: string;
  [extra: string]: unknown;
}

export interface DeliveryQuery {
  endpointId?: string;
  event?: string;
  status?: DeliveryStatus;
  /** At most this many, newest `createdAt` first. */
  limit?: number;
  offset?: number;
}

/**
 * The delivery log. Every write resolves once durable (as every DocumentStore write); `update` is an atomic
 * read-modify-write, so two instances never both record the same attempt.
 */
export interface DeliveryStore {
  get(id: string): Promise<DeliveryRecord | undefined>;
  /** Inserts or replaces the delivery with `record.id`. */
  put(record: DeliveryRecord): Promise<DeliveryRecord>;
  update(id: string, change: (current: DeliveryRecord) => DeliveryRecord | undefined): Promise<DeliveryRecord | undefined>;
  /** `pending` deliveries whose `nextAttemptMs` is at most `nowMs`, soonest first, at most `limit`. */
  due(nowMs: number, limit: number): Promise<DeliveryRecord[]>;
  /** Matching deliveries, newest `createdAt` first (ties: later insertion first). */
  find(query?: DeliveryQuery): Promise<DeliveryRecord[]>;
  /** Removes settled deliveries (delivered or failed) settled before `cutoffIso`; resolves to how many. */
  deleteSettledBefore(cutoffIso: string): Promise<number>;
}
