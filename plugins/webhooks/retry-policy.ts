/** How deliveries are retried (the plugin's WEBHOOK_* variables). */
export interface RetryPolicy {
  /** The wait before the 2nd attempt; each later wait doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** From a delivery's creation: no attempt starts later than this; the delivery is then `failed`. */
  horizonMs: number;
}

/** What one attempt came to. */
export interface AttemptResult {
  ok: boolean;
  statusCode?: number;
  error?: string;
  /** Worth another attempt: a network error, a timeout, 408, 429 or 5xx. */
  retry: boolean;
  /** The receiver's `Retry-After`, in ms, when it sent one that parses. */
  retryAfterMs?: number;
}

/** Statuses worth another attempt: the receiver may take it later. Any other 4xx is final. */
export const retryableStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** `Retry-After` as ms from `nowMs`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  if (!/^[A-Za-z]{3}, /.test(value.trim())) return undefined; // an HTTP date starts with its day's name
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

/**
 * The wait after failed attempt number `attempt` (1-based): exponential with jitter (between 75 % and 125 % of
 * base x 2^(attempt-1), capped), so receivers coming back up are not hit by every sender at once. A `Retry-After`
 * wins when longer.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number, random = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempt - 1, 30));
  const jittered = Math.round(exponential * (0.75 + random() * 0.5));
  return retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered);
}
