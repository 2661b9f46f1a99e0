import type { ContextHandle } from '../../kernel/contracts/browser.js';
import type { ContextLimits, ContextOutcome, PoolContextOptions, WithContext } from '../../kernel/contracts/browser-pool.js';
import type { BrowserSession } from './decorators.js';

const STOPPED = Symbol('stopped');

// Worded and named as the pool's own ends of a run, which this stands in for until the browser is open.
const timedOut = (ms: number) => Object.assign(new Error(`Timed out after ${ms} ms`), { name: 'TimeoutError' });
const cancelled = (reason?: unknown) =>
  Object.assign(new Error(reason instanceof Error ? `Cancelled: ${reason.message}` : 'Cancelled', { cause: reason }), { name: 'AbortError' });

/**
 * `withContext` in the managed browser, opening it first when needed. The launch counts against the
 * run's limits, and like the pool's this never rejects: every failure is an outcome.
 */
export function headfulWithContext(open: () => Promise<BrowserSession>): WithContext {
  return async <T>(
    options: PoolContextOptions,
    fn: (context: ContextHandle, signal: AbortSignal) => Promise<T>,
    limits: ContextLimits = {},
  ): Promise<ContextOutcome<T>> => {
    const started = Date.now();
    let stop: Error | undefined;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<typeof STOPPED>((resolve) => {
      if (limits.timeoutMs !== undefined) {
        const ms = limits.timeoutMs;
        timer = setTimeout(() => { stop = timedOut(ms); resolve(STOPPED); }, ms);
      }
      onAbort = () => { stop = cancelled(limits.signal?.reason); resolve(STOPPED); };
      if (limits.signal?.aborted) onAbort();
      else limits.signal?.addEventListener('abort', onAbort, { once: true });
    });
    let session: BrowserSession | typeof STOPPED;
    try {
      session = await Promise.race([open(), stopped]);
    } catch (error) {
      return { status: 'error', error: error instanceof Error ? error : new Error(String(error)) };
    } finally {
      clearTimeout(timer);
      if (onAbort) limits.signal?.removeEventListener('abort', onAbort);
    }
    if (session === STOPPED) {
      // A launch given up on still completes and stays open as the session: the next run uses it.
      const error = stop ?? cancelled();
      return { status: error.name === 'TimeoutError' ? 'timeout' : 'aborted', error };
    }
    const left = limits.timeoutMs === undefined ? undefined : Math.max(1, limits.timeoutMs - (Date.now() - started));
    return session.withContext(options, fn, { signal: limits.signal, timeoutMs: left });
  };
}
