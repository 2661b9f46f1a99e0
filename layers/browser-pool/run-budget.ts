import type { BrowserHandle, ContextFailure, ContextOptions } from '../../kernel/contracts/browser.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import { createMemoryWatchdog, type MemoryWatchdog, type MemoryWatchdogOptions } from './memory-watchdog.js';
import { RunResourceError } from './pool-errors.js';

const MB = 1024 * 1024;
const VARIABLE = 'RUN_MEMORY_LIMIT_MB';

/**
 * What a run may use of the machine (RUN_MEMORY_LIMIT_MB), in three layers:
 * - the JavaScript heap of every renderer is capped by a launch switch (browser-wide: all runs share one
 *   browser, each in its own context, and contexts never share a renderer), so a page allocating without end
 *   runs out of memory alone;
 * - a watchdog measures the renderers while runs hold the browser and ends one over the limit (see
 *   memory-watchdog.ts): DOM, layout and buffers are outside the JavaScript heap;
 * - a response announcing more than the limit for a resource a page keeps whole ends the run as it arrives.
 * The run whose page crashed ends at once with an error saying which. A remote browser (BROWSER_WS_ENDPOINT)
 * gets only the response check and crash handling: its processes and switches are not this service's.
 */
export interface RunBudget {
  /** Switches for each launched browser. */
  readonly launchArgs: string[];
  /** What each context adds to its options: the response limit, and `onFailure` calling `end` with the error to end the run with. */
  contextOptions(end: (error: RunResourceError) => void): Pick<ContextOptions, 'maxResponseBytes' | 'onFailure'>;
  /** Measures `handle`'s renderers while a run holds a context on it (nothing for a remote browser). Returns the release. */
  hold(handle: BrowserHandle): () => void;
  close(): void;
}

export interface RunBudgetOptions {
  /** RUN_MEMORY_LIMIT_MB; 0 or undefined: no limit (crashed pages still end their run at once). */
  limitMb?: number;
  logger: Logger;
  /** Watchdog settings tests shorten or replace. */
  watchdog?: Partial<Omit<MemoryWatchdogOptions, 'limitMb' | 'logger'>>;
}

export function createRunBudget(options: RunBudgetOptions): RunBudget {
  const limitMb = options.limitMb ? options.limitMb : undefined;
  let watchdog: MemoryWatchdog | undefined;
  const watchdogOf = () => (watchdog ??= createMemoryWatchdog({ ...options.watchdog, limitMb: limitMb!, logger: options.logger }));

  function explain(failure: ContextFailure): RunResourceError {
    if (failure.kind === 'response-too-large') {
      const mb = Math.round(failure.bytes / MB);
      return new RunResourceError(`The page loaded a response of ${mb} MB (${shortUrl(failure.url)}), more than the run's ` +
        `memory limit of ${limitMb} MB (${VARIABLE}); the run was ended`, false);
    }
    const kill = limitMb === undefined ? undefined : watchdogOf().claimKill();
    if (kill) {
      return new RunResourceError(`The page used more than ${limitMb} MB of memory (${VARIABLE}): its renderer process ` +
        `reached ${kill.usedMb} MB and was ended`);
    }
    if (limitMb !== undefined) {
      return new RunResourceError('The page crashed: its renderer process ended, most likely out of memory ' +
        `(a page's JavaScript may use up to ${limitMb} MB, ${VARIABLE})`);
    }
    return new RunResourceError('The page crashed: its renderer process ended');
  }

  return {
    launchArgs: limitMb === undefined ? [] : [`--js-flags=--max-old-space-size=${limitMb}`],
    contextOptions: (end) => ({
      ...(limitMb === undefined ? {} : { maxResponseBytes: limitMb * MB }),
      onFailure: (failure) => end(explain(failure)),
    }),
    hold(handle) {
      if (limitMb === undefined || handle.pid === undefined) return () => undefined;
      return watchdogOf().hold(handle.pid);
    },
    close() {
      watchdog?.close();
    },
  };
}

/** Origin and path: a query may hold a secret. */
function shortUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}
