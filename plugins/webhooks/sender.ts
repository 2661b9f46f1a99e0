import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { contextOf, traceparentOf, tracer } from '../../layers/tracing/tracing.js';
import type { DeliveryAttempt, DeliveryRecord, DeliveryStore } from '../../kernel/contracts/deliveries.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { ClaimStore } from '../../kernel/contracts/storage.js';
import type { OutboundClient } from '../../kernel/outbound/index.js';
import { attemptDelivery, type AttemptOutcome } from './attempt.js';
import { retryDelayMs, type RetryPolicy } from './retry-policy.js';
import { signatureHeaders } from './signing.js';

/** Where a delivery goes and what signs it, read at each attempt (an endpoint's URL or secret may have changed). */
export interface Destination {
  url: string;
  secrets: string[];
}

export interface SenderDeps {
  deliveries: DeliveryStore;
  claims: ClaimStore;
  client: OutboundClient;
  logger: Logger;
  policy: RetryPolicy;
  /** Per attempt, answer included. */
  timeoutMs: number;
  /** How often due deliveries are looked for (a new delivery or a short retry wakes the sender sooner). */
  pollMs: number;
  /** Attempts under way at once in this process. */
  concurrency: number;
  /** Names this process in the attempt claims. */
  owner: string;
  /** Undefined when the delivery has nowhere to go any more (its endpoint was deleted): it fails. */
  destinationOf(record: DeliveryRecord): Promise<Destination | undefined>;
  /** Told once a delivery is delivered or failed (runs' callbacks note it on the execution). */
  settled?(record: DeliveryRecord): Promise<void>;
}

/**
 * An attempt's claim outlives its timeout by this much (time to record it). An instance that dies during an
 * attempt leaves the claim: the attempt is made again once it expires.
 */
const CLAIM_SLACK_MS = 5_000;

/** Where a delivery goes, for logs and answers: the origin only (a path or query may carry a token). */
export function targetOf(url: string | undefined): string {
  try {
    return url === undefined ? 'unknown' : new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}

/** From when a delivery's horizon counts: its creation, or its last redelivery. */
const windowStartMs = (record: DeliveryRecord): number => Date.parse(typeof record.retryingSince === 'string' ? record.retryingSince : record.createdAt);

/**
 * The record after attempt `outcome`: delivered, failed (final answer, or past the horizon) or pending again.
 * `startedMs`: when the attempt was sent (else `nowMs` less its latency).
 */
export function afterAttempt(record: DeliveryRecord, outcome: AttemptOutcome, policy: RetryPolicy, nowMs: number, startedMs?: number): DeliveryRecord {
  const attempt: DeliveryAttempt = { at: new Date(startedMs ?? nowMs - outcome.latencyMs).toISOString(), latencyMs: outcome.latencyMs };
  if (outcome.statusCode !== undefined) attempt.statusCode = outcome.statusCode;
  if (outcome.error !== undefined) attempt.error = outcome.error;
  if (outcome.excerpt !== undefined) attempt.excerpt = outcome.excerpt;
  const attempts = [...record.attempts, attempt];
  const settle = (status: 'delivered' | 'failed'): DeliveryRecord => ({ ...record, attempts, status, settledAt: new Date(nowMs).toISOString() });
  if (outcome.ok) return settle('delivered');
  if (!outcome.retry) return settle('failed');
  const next = nowMs + retryDelayMs(policy, attempts.length, outcome.retryAfterMs);
  if (next > windowStartMs(record) + policy.horizonMs) return settle('failed');
  return { ...record, attempts, nextAttemptMs: next };
}

/**
 * Sends stored deliveries: every pending one whose time came, from any instance (each attempt is claimed, so one
 * instance makes it), until it is delivered or its horizon passed. A delivery is written before its first attempt
 * and after each, so a restart carries on where the last instance stopped.
 */
export function createSender(deps: SenderDeps) {
  const { deliveries, logger } = deps;
  const inFlight = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let sweeping = false;
  let again = false;
  let stopped = true;

  async function attempt(record: DeliveryRecord): Promise<void> {
    const n = record.attempts.length + 1;
    if (!(await deps.claims.claim(`webhook:${record.id}:${n}`, deps.owner, deps.timeoutMs + CLAIM_SLACK_MS))) return;
    const destination = await deps.destinationOf(record);
    const nowMs = () => Date.now();
    const startedMs = nowMs();
    // An attempt due before the horizon but reached after it (a busy or stopped service) is not made: it fails.
    if (startedMs > windowStartMs(record) + deps.policy.horizonMs) {
      const given = await deliveries.update(record.id, (current) => (current.status !== 'pending' || current.attempts.length !== n - 1 ? undefined
        : { ...current, status: 'failed', settledAt: new Date().toISOString() }));
      if (given?.status === 'failed' && given.attempts.length === n - 1) {
        logger.warn({ deliveryId: record.id, event: record.event, attempts: n - 1 }, 'webhook delivery failed: its retry horizon passed');
        await deps.settled?.(given).catch((error: unknown) => logger.warn({ err: error, deliveryId: record.id }, 'noting a settled webhook delivery failed'));
      }
      return;
    }
    // Each attempt is a span of the trace the delivery was published in, and the request carries it on.
    const span = tracer().startSpan('webhook attempt', { kind: SpanKind.CLIENT, attributes: {
      'taskloom.delivery_id': record.id, 'taskloom.event': record.event, 'taskloom.attempt': n,
    } }, contextOf(typeof record.traceparent === 'string' ? record.traceparent : undefined));
    const traceparent = traceparentOf(trace.setSpan(context.active(), span));
    const outcome: AttemptOutcome = destination
      ? await attemptDelivery(deps.client, {
        url: destination.url, payload: record.payload, timeoutMs: deps.timeoutMs,
        headers: {
          ...signatureHeaders(record.id, record.payload, destination.secrets), 'x-taskloom-attempt': String(n),
          ...(traceparent === undefined ? {} : { traceparent }),
        },
      })
      : { ok: false, retry: false, error: 'its webhook endpoint was deleted', latencyMs: 0 };
    if (outcome.statusCode !== undefined) span.setAttribute('http.response.status_code', outcome.statusCode);
    if (!outcome.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? 'failed' });
    span.end();
    // Only the attempt this process claimed is recorded (a redelivery meanwhile leaves the record as it is).
    const stored = await deliveries.update(record.id, (current) =>
      (current.status !== 'pending' || current.attempts.length !== n - 1 ? undefined : afterAttempt(current, outcome, deps.policy, nowMs(), startedMs)));
    if (!stored || stored.attempts.length !== n) return;
    const fields = { deliveryId: record.id, event: record.event, target: targetOf(destination?.url), attempts: n, status: outcome.statusCode };
    if (stored.status === 'pending') {
      logger.info({ ...fields, error: outcome.error, retryInMs: stored.nextAttemptMs - nowMs() }, 'webhook attempt failed: retrying later');
      wakeAt(stored.nextAttemptMs);
      return;
    }
    if (stored.status === 'delivered') logger.info(fields, 'webhook delivered');
    else logger.warn({ ...fields, error: outcome.error }, 'webhook delivery failed');
    await deps.settled?.(stored).catch((error: unknown) => logger.warn({ err: error, deliveryId: record.id }, 'noting a settled webhook delivery failed'));
  }

  function launch(record: DeliveryRecord): void {
    const running = attempt(record)
      .catch((error: unknown) => logger.warn({ err: error, deliveryId: record.id }, 'a webhook attempt could not be made or recorded; trying again later'))
      .finally(() => {
        inFlight.delete(record.id);
        kick();
      });
    inFlight.set(record.id, running);
  }

  /**
   * Due deliveries read ahead (a few slots' worth), so a finished attempt starts the next without reading the
   * store again; dropped when older than a poll (another instance may have sent them meanwhile: the claim would
   * refuse them anyway).
   */
  let ahead: DeliveryRecord[] = [];
  let aheadAtMs = 0;

  /** Starts the attempts that are due, as many as there are free slots. */
  async function sweep(): Promise<void> {
    if (sweeping) {
      again = true;
      return;
    }
    sweeping = true;
    try {
      do {
        again = false;
        if (stopped || inFlight.size >= deps.concurrency) break;
        if (ahead.length === 0 || Date.now() - aheadAtMs > deps.pollMs) {
          ahead = (await deliveries.due(Date.now(), 4 * deps.concurrency)).filter((record) => !inFlight.has(record.id));
          aheadAtMs = Date.now();
        }
        while (ahead.length > 0 && !stopped && inFlight.size < deps.concurrency) {
          const record = ahead.shift()!;
          if (!inFlight.has(record.id)) launch(record);
        }
      } while (again);
    } catch (error) {
      logger.warn({ err: error }, 'looking for due webhook deliveries failed; trying again at the next poll');
    } finally {
      sweeping = false;
    }
  }

  function kick(): void {
    if (!stopped) void sweep();
  }

  /** A retry sooner than the next poll gets its own wake-up. */
  function wakeAt(ms: number): void {
    const inMs = ms - Date.now();
    if (!stopped && inMs < deps.pollMs) setTimeout(kick, Math.max(0, inMs)).unref();
  }

  return {
    kick,
    start(): void {
      stopped = false;
      timer = setInterval(kick, deps.pollMs);
      timer.unref();
      kick();
    },
    /** No new attempts; resolves once those under way are recorded. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}

export type Sender = ReturnType<typeof createSender>;
