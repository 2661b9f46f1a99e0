import type { BrowserDriver, BrowserHandle } from '../../kernel/contracts/browser.js';
import type { DedicatedBrowser, DedicatedBrowserOptions as LaunchOptions, WithCdp } from '../../kernel/contracts/browser-pool.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { BrowserNetwork } from './browser-network.js';
import type { BrowserPool, BrowserPoolOptions } from './browser-pool.js';
import { withCdp } from './cdp-connection.js';
import { settleWithin } from '../async/settle-within.js';

export type { DedicatedBrowser } from '../../kernel/contracts/browser-pool.js';

export interface DedicatedBrowserOptions extends LaunchOptions {
  driver: BrowserDriver;
  /** Chromium to launch (detected by the caller). */
  executablePath: string;
  logger: Logger;
  killAfterMs?: number;
  /** The outbound rule and blocked schemes for this browser (the service always gives it). */
  network?: BrowserNetwork;
}

const CLOSE_TIMED_OUT = Symbol('close timed out');

/**
 * Launches the browser of a DedicatedBrowser (kernel/contracts/browser-pool.ts). Its contexts are opened through
 * a pool of its own (`createPool`, the pool's factory), with its timeouts and kill timers.
 */
export async function launchDedicatedBrowser(
  options: DedicatedBrowserOptions, createPool: (options: BrowserPoolOptions) => BrowserPool,
): Promise<DedicatedBrowser> {
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
  const cdp: WithCdp = (timeoutMs, fn) => withCdp(cdpEndpoint, timeoutMs, fn);
  // The pool's warm browser is this one browser: its driver hands it out once and never launches another.
  const pool = createPool({
    driver: onlyHandle(options.driver.id, handle),
    config: { browserExecutablePath: options.executablePath, browserWsEndpoint: undefined },
    chromium: async () => ({ executablePath: options.executablePath }), // launched above: nothing to detect
    logger: options.logger,
    cookieStore: options.cookieStore?.({ withCdp: cdp }),
    killAfterMs,
  });
  let closing: Promise<void> | undefined;
  return {
    headless: options.headless,
    pid: handle.pid,
    cdpEndpoint,
    withContext: (contextOptions, fn, limits) => pool.withContext(contextOptions, fn, limits),
    withCdp: cdp,
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
