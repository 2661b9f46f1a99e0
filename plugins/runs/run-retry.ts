import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { retryOf, type Requeue } from '../../layers/execution-requeue/requeued-record.js';
import type { BrowseOutcome } from './browse-run.js';

/** How a run a browser grid turns away is tried again: backoff doubling from the first delay, within both limits. */
export interface BusyRetryLimits {
  firstDelayMs: number;
  maxDelayMs: number;
  /** Turned away this many times in a row: the run fails. */
  maxTries: number;
  /** Or turned away for this long since the first refusal. */
  maxMs: number;
}

export const BUSY_RETRY_LIMITS: BusyRetryLimits = { firstDelayMs: 2000, maxDelayMs: 60_000, maxTries: 10, maxMs: 10 * 60_000 };

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * What becomes of a run that ended here with `outcome` (its claimed record at hand): back to the queue (a busy
 * grid, or a retry its task asked for), a failure (the grid stayed busy past the limits), or its end as it is.
 */
export function nextTurn(record: ExecutionRecord, outcome: BrowseOutcome, limits: BusyRetryLimits, nowMs: number):
  { requeue: Omit<Requeue, 'logs' | 'owner'> } | { end: BrowseOutcome } {
  if (outcome.busy) {
    const count = (record.queueing?.busy ?? 0) + 1;
    const since = record.queueing?.busySince ?? new Date(nowMs).toISOString();
    const waitedMs = nowMs - Date.parse(since);
    if (count > limits.maxTries || waitedMs >= limits.maxMs) {
      const message = `The browser grid stayed busy: it turned the run away ${count} times over ${seconds(waitedMs)}. ${outcome.result.error?.message ?? ''}`.trim();
      return { end: { status: 'error', result: { ...outcome.result, error: { message } } } };
    }
    const delayMs = Math.min(limits.firstDelayMs * 2 ** (count - 1), limits.maxDelayMs);
    return { requeue: { nowMs, delayMs, busy: { count, since }, message: `the browser grid is busy: retrying in ${seconds(delayMs)} (turned away ${count} of at most ${limits.maxTries} times)` } };
  }
  if (outcome.proxyRetry) {
    const count = (record.queueing?.proxyRetries ?? 0) + 1;
    return { requeue: { nowMs, delayMs: 0, proxyRetry: true, message: `met a bot wall (${outcome.wall?.detail ?? 'anti_bot'}): running again through another proxy (${count} of ${outcome.proxyRetry.max})` } };
  }
  const retry = retryOf(record, outcome.status);
  if (!retry) return { end: outcome };
  const wait = retry.delayMs > 0 ? ` in ${seconds(retry.delayMs)}` : '';
  return {
    requeue: {
      nowMs, delayMs: retry.delayMs, attempt: retry.attempt,
      message: `ended ${outcome.status} (${outcome.result.error?.message ?? 'no message'}): retrying${wait} (attempt ${retry.attempt} of ${record.queueing!.retries!.max + 1})`,
    },
  };
}
