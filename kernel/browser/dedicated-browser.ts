import type { BrowserDriver, BrowserHandle } from '../contracts/browser.js';
import type { Logger } from '../contracts/logger.js';
import type { BrowserNetwork } from './browser-network.js';
import { createBrowserPool, type BrowserPool } from './browser-pool.js';
import type { CookieStore } from './cookie-jar.js';
import { settleWithin } from './settle-within.js';

export interface DedicatedBrowserOptions {
  driver: BrowserDriver;
  /** Chromium to launch (detected by the caller). */
  executablePath: string;
  headless: boolean;
  /** Environment of the browser process, e.g. `{ DISPLAY: ':99' }`. */
  env?: Record<string, string>;
  /** Extra Chromium switches (e.g. a window size for a headful browser). */
  args?: string[];
  logger: Logger;
  /** Where runs that keep cookies read and write them; default: the pool's in-memory jar. */
  cookieStore?: (cdpEndpoint: string) => CookieStore;
  launchTimeoutMs?: number;
  killAfterMs?: number;
  /** The outbound rule and blocked schemes for this browser (the service always gives it). */
  network?: BrowserNetwork;
}

/**
 * One browser launched for its own purpose (the headful session), beside the service's warm browser. It is
 * never relaunched: when it closes or crashes it is gone, and so is everything tied to it (a DevTools relay,
 * a person's login). Contexts are opened through the kernel's pool, with its timeouts and kill timers.
 */
export interface DedicatedBrowser {
  readonly headless: boolean;
  /** Process id of the browser. */
  readonly pid: number | undefined;
  /** The browser's DevTools WebSocket URL, on 127.0.0.1. */
  readonly cdpEndpoint: string;
  /** The pool's `withContext` on this browser (never rejects; fails as `error` once the browser is gone). */
  withContext: BrowserPool['withContext'];
  isConnected(): boolean;
  /** Called once when the browser closes or crashes. */
  onDisconnected(listener: () => void): void;
  /** Ends running contexts (`aborted`), closes the browser and kills it when it does not close in time. Idempotent. */
  close(): Promise<void>;
}

const CLOSE_TIMED_OUT = Symbol('close timed out');

export async function launchDedicatedBrowser(options: DedicatedBrowserOptions): Promise<DedicatedBrowser> {
  const killAfterMs = options.killAfterMs ?? 5000;
  const driver = options.network ? options.network.police(options.driver) : options.driver;
  const handle = await driver.launch({
    executablePath: options.executablePath,
    headless: options.headless,
    env: options.env,
    args: options.args ?? [],
    timeoutMs: options.launchTimeoutMs ?? 30_000,
  });
  const cdpEndpoint = handle.cdpEndpoint?.();
  if (!cdpEndpoint) {
    handle.kill();
    throw new Error(`The ${options.driver.id} engine exposes no DevTools endpoint for the browsers it launches`);
  }
  // The pool's warm browser is this one browser: its driver hands it out once and never launches another.
  const pool = createBrowserPool({
    driver: onlyHandle(options.driver.id, handle),
    config: { browserExecutablePath: options.executablePath, browserWsEndpoint: undefined },
    chromium: async () => ({ executablePath: options.executablePath }), // launched above: nothing to detect
    logger: options.logger,
    cookieStore: options.cookieStore?.(cdpEndpoint),
    killAfterMs,
  });
  let closing: Promise<void> | undefined;
  return {
    headless: options.headless,
    pid: handle.pid,
    cdpEndpoint,
    withContext: (contextOptions, fn, limits) => pool.withContext(contextOptions, fn, limits),
    isConnected: () => handle.isConnected(),
    onDisconnected: (listener) => handle.onDisconnected(listener),
    close() {
      closing ??= (async () => {
        await pool.close();
        // The pool closes the browser only once a run has used it: close it here in any case.
        const closed = await settleWithin(handle.close(), killAfterMs, CLOSE_TIMED_OUT, () => undefined);
        if (closed === CLOSE_TIMED_OUT) options.logger.warn({ pid: handle.pid }, `browser did not close within ${killAfterMs} ms`);
        handle.kill();
      })();
      return closing;
    },
  };
}

function onlyHandle(id: string, handle: BrowserHandle): BrowserDriver {
  let handedOut = false;
  return {
    id,
    async launch() {
      if (handedOut || !handle.isConnected()) throw new Error('The browser session has ended: open a new one');
      handedOut = true;
      return handle;
    },
  };
}
