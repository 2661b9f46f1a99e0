import {
  ContextAbortedError, ContextTimeoutError, type BrowserPool, type ContextLimits, type ContextOutcome, type PoolContextOptions,
} from '../../kernel/browser/index.js';
import type { ContextHandle } from '../../kernel/contracts/browser.js';
import type { BrowserSession } from './decorators.js';

const STOPPED = Symbol('stopped');

/**
 * `withContext` in the managed browser, opening it first when needed. The launch counts against the
 * run's limits, and like the pool's this never rejects: every failure is an outcome.
 */
export function headfulWithContext(open: () => Promise<BrowserSession>): BrowserPool['withContext'] {
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
        timer = setTimeout(() => { stop = new ContextTimeoutError(ms); resolve(STOPPED); }, ms);
      }
      onAbort = () => { stop = new ContextAbortedError(limits.signal?.reason); resolve(STOPPED); };
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
      const error = stop ?? new ContextAbortedError();
      return { status: error instanceof ContextTimeoutError ? 'timeout' : 'aborted', error };
    }
    const left = limits.timeoutMs === undefined ? undefined : Math.max(1, limits.timeoutMs - (Date.now() - started));
    return session.withContext(options, fn, { signal: limits.signal, timeoutMs: left });
  };
}
