import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../kernel/contracts/logger.js';
import { OutboundBlockedError, OutboundRequestError, type OutboundClient } from '../../kernel/outbound/index.js';
import type { RunAnswer } from './live-run.js';

/** Recorded on the execution as `webhook`. Never holds the URL: it may carry a token. */
export interface WebhookReport {
  delivered: boolean;
  /** HTTP status of the last answer, when there was one. */
  status?: number;
  error?: string;
  /** From the first attempt to the last answer or failure, backoff included. */
  durationMs: number;
  attempts: number;
}

export interface WebhookOptions {
  /** Per attempt (spec, "Limits": 10 s). */
  timeoutMs?: number;
  /** Waits before the 2nd, 3rd, ... attempt. */
  retryDelaysMs?: readonly number[];
  /** Aborting it skips the remaining retries (shutdown); an attempt under way finishes. */
  signal?: AbortSignal;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;
/**
 * Retry policy: a network error (a refused connection, or no answer within the timeout), a 429 or a 5xx is
 * tried again after 1 s, then 3 s (3 attempts in all, as the README promises); a receiver that never answers
 * thus holds the delivery for about 34 s, after the run's answer. A receiver may have acted on an attempt
 * it did not answer in time: receivers dedupe on `executionId`. Another 4xx is not retried, nor a
 * destination the outbound rule refuses.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [1_000, 3_000] as const;

type Attempt = { ok: true; status: number } | { ok: false; status?: number; error: string; retry: boolean };

/** Where a webhook goes, for logs: the origin only (no path or query, which may hold a token). */
export function webhookTarget(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}

function describeFailure(error: unknown): { error: string; retry: boolean } {
  if (error instanceof OutboundBlockedError) return { error: `refused: ${error.reason}`, retry: false };
  if (error instanceof OutboundRequestError) return { error: error.reason, retry: true };
  // fetch says "fetch failed" and keeps the system error (ECONNREFUSED, ...) as its cause.
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('E')) return { error: `connection failed (${code})`, retry: true };
  }
  return { error: 'the request failed', retry: true };
}

async function attempt(client: OutboundClient, url: string, body: string, n: number, timeoutMs: number): Promise<Attempt> {
  try {
    const response = await client.request(url, {
      method: 'POST',
      body,
      timeoutMs,
      maxRedirects: 3,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'taskloom-webhook',
        'x-taskloom-attempt': String(n),
      },
    });
    await response.body?.cancel().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    const retry = response.status === 429 || response.status >= 500;
    return { ok: false, status: response.status, error: `the receiver answered ${response.status}`, retry };
  } catch (error) {
    return { ok: false, ...describeFailure(error) };
  }
}

/** POSTs the run's answer to `url`. Never throws: every failure ends up in the report (and the log). */
export async function deliverWebhook(
  client: OutboundClient, url: string, answer: RunAnswer, logger: Logger, options: WebhookOptions = {},
): Promise<WebhookReport> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const delays = options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const body = JSON.stringify(answer);
  const target = webhookTarget(url);
  const started = Date.now();
  let last: Attempt | undefined;
  let attempts = 0;
  while (attempts <= delays.length) {
    if (attempts > 0) {
      try {
        await sleep(delays[attempts - 1], undefined, { signal: options.signal });
      } catch {
        break; // shutting down: no more retries
      }
    }
    attempts++;
    last = await attempt(client, url, body, attempts, timeoutMs);
    if (last.ok || !last.retry) break;
  }
  const report: WebhookReport = { delivered: last?.ok === true, durationMs: Date.now() - started, attempts };
  if (last?.status !== undefined) report.status = last.status;
  if (last && !last.ok) report.error = last.error;
  const fields = { executionId: answer.executionId, target, attempts, status: report.status, durationMs: report.durationMs };
  if (report.delivered) logger.info(fields, 'webhook delivered');
  else logger.warn({ ...fields, error: report.error }, 'webhook delivery failed');
  return report;
}
