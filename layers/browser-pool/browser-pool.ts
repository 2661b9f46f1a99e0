import type { BrowserCookie, BrowserDriver, BrowserHandle, ContextHandle } from '../../kernel/contracts/browser.js';
import type { BrowserPool, ContextOutcome, CookieStore, DedicatedBrowserOptions, PoolContextOptions } from '../../kernel/contracts/browser-pool.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { BrowserNetwork } from './browser-network.js';
import { createCookieJar, createMemoryCookieStore } from './cookie-jar.js';
import { chooseChromium, type ChromiumTarget } from './choose-chromium.js';
import { chromiumAtStart } from './chromium-at-start.js';
import { BrowserDisconnectedError, BrowserPoolClosedError, ContextAbortedError, ContextTimeoutError, RunResourceError } from './pool-errors.js';
import { launchDedicatedBrowser } from './dedicated-browser.js';
import { createRunBudget, type RunBudgetOptions } from './run-budget.js';
import { settleWithin } from './settle-within.js';
import { WarmBrowser } from './warm-browser.js';

export interface BrowserPoolOptions {
  driver: BrowserDriver;
  config: {
    /** BROWSER_EXECUTABLE_PATH: the Chromium to launch, before any detected one. */
    browserExecutablePath?: string;
    /** BROWSER_WS_ENDPOINT: connect to this remote browser instead of launching one. */
    browserWsEndpoint?: string;
    /** RUN_MEMORY_LIMIT_MB (see run-budget.ts): none when not given. */
    runMemoryLimitMb?: number;
  };
  logger: Logger;
  /** Where the cookie jar persists; default: in memory. */
  cookieStore?: CookieStore;
  /** How long a context or browser may take to close before the browser is killed (default 5000 ms). */
  killAfterMs?: number;
  /** Launch or connection limit (default 30000 ms). */
  launchTimeoutMs?: number;
  /**
   * With BROWSER_WS_ENDPOINT: how long one round of reconnection attempts (with backoff) may last before the
   * runs waiting for it fail (default 30000 ms). The next run starts a new round.
   */
  reconnectWindowMs?: number;
  /** Default true. */
  headless?: boolean;
  /** Extra Chromium switches. */
  args?: string[];
  /** PATH-style directories for Chromium detection (default: the service's PATH). */
  searchPath?: string;
  /**
   * The Chromium each launch uses. Default: chosen when the pool is made (start-up) by chooseChromium and
   * logged once; unused with BROWSER_WS_ENDPOINT.
   */
  chromium?: () => Promise<ChromiumTarget>;
  /** The outbound rule and blocked schemes for the browsers the pool launches (the service always gives it). */
  network?: BrowserNetwork;
  /** The memory watchdog's timing and process access (tests). */
  watchdog?: RunBudgetOptions['watchdog'];
}

export type { BrowserPool, ContextLimits, ContextOutcome, PoolContextOptions } from '../../kernel/contracts/browser-pool.js';

const COOKIE_READ_MS = 2000;
const CLOSE_TIMED_OUT = Symbol('close timed out');

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const { config, logger } = options;
  const driver = options.network ? options.network.police(options.driver) : options.driver;
  const killAfterMs = options.killAfterMs ?? 5000;
  const cookieJar = createCookieJar(options.cookieStore ?? createMemoryCookieStore());
  const headless = options.headless ?? true;
  const budget = createRunBudget({ limitMb: config.runMemoryLimitMb, logger, watchdog: options.watchdog });
  const chromium = config.browserWsEndpoint ? undefined : options.chromium ?? chromiumAtStart({
    configuredPath: config.browserExecutablePath,
    driver,
    searchPath: options.searchPath,
    use: headless ? 'headless' : 'window',
  }, logger);
  const warm = new WarmBrowser(driver, async () => {
    const target = await chromium?.();
    return {
      executablePath: target?.executablePath,
      env: target?.env,
      wsEndpoint: config.browserWsEndpoint,
      headless,
      args: [...(options.args ?? []), ...budget.launchArgs],
      timeoutMs: options.launchTimeoutMs ?? 30_000,
    };
  }, logger, killAfterMs, config.browserWsEndpoint ? {
    endpoint: config.browserWsEndpoint,
    windowMs: options.reconnectWindowMs ?? 30_000,
    initialDelayMs: 250,
    maxDelayMs: 5000,
  } : undefined);
  const running = new Map<AbortController, Promise<unknown>>();
  let open = 0;
  let closing: Promise<void> | undefined;

  /** Closes `context`, killing its browser when the close hangs (a wedged renderer). */
  async function closeContext(handle: BrowserHandle, context: ContextHandle): Promise<{ videoPath?: string }> {
    try {
      const result = await settleWithin(context.close(), killAfterMs, CLOSE_TIMED_OUT, (error: unknown) => {
        if (handle.isConnected()) logger.warn({ err: error }, 'closing a browser context failed');
        return {};
      });
      if (result !== CLOSE_TIMED_OUT) return result;
      logger.warn({ pid: handle.pid }, `a browser context did not close within ${killAfterMs} ms`);
      warm.kill(handle);
      return {};
    } finally {
      open--;
    }
  }

  async function mergeCookies(context: ContextHandle, loaded: BrowserCookie[]): Promise<void> {
    const final = await settleWithin(context.cookies(), COOKIE_READ_MS, undefined, () => undefined);
    if (final) await cookieJar.merge(loaded, final).catch((error: unknown) => logger.warn({ err: error }, 'saving cookies failed'));
  }

  async function run<T>(
    options: PoolContextOptions,
    fn: (context: ContextHandle, signal: AbortSignal) => Promise<T>,
    controller: AbortController,
  ): Promise<ContextOutcome<T>> {
    const { keepCookies, ...asked } = options;
    // A crashed page or one over its memory ends the run at once (a crashed page can leave calls hanging).
    const contextOptions = { ...asked, ...budget.contextOptions((error) => controller.abort(error)) };
    const signal = controller.signal;
    const stopped = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    stopped.catch(() => undefined);
    let handle: BrowserHandle | undefined;
    let context: ContextHandle | undefined;
    let loaded: BrowserCookie[] = [];
    let outcome: ContextOutcome<T>;
    try {
      handle = await Promise.race([warm.get(), stopped]);
      loaded = keepCookies ? await Promise.race([cookieJar.load(), stopped]) : [];
      // A browser killed a moment ago may still look connected; its first newContext then fails.
      // Forget it and open the context on a freshly launched one instead (once).
      const first = handle;
      const opening = first.newContext({ ...contextOptions, cookies: loaded }).catch(async (error: unknown) => {
        if (signal.aborted || !browserIsGone(first, error)) throw error;
        warm.kill(first);
        handle = await warm.get();
        return handle.newContext({ ...contextOptions, cookies: loaded });
      }).then((created) => { open++; return created; });
      const opened = () => handle!;
      try {
        context = await Promise.race([opening, stopped]);
      } catch (error) {
        // Opened after the run was given up: close it all the same.
        void opening.then((late) => closeContext(opened(), late), () => undefined);
        throw error;
      }
      // The browser (or the connection to a remote one) going away ends the run at once, with the reason.
      const unwatch = warm.watch(opened(), (error) => controller.abort(error));
      const release = budget.hold(opened());
      try {
        outcome = { status: 'ok', value: await Promise.race([fn(context, signal), stopped]) };
      } finally {
        unwatch();
        release();
      }
    } catch (error) {
      outcome = describe(error, signal);
    }
    if (context && handle) {
      if (keepCookies && handle.isConnected()) await mergeCookies(context, loaded);
      const { videoPath } = await closeContext(handle, context);
      if (videoPath) outcome.videoPath = videoPath;
    }
    return outcome;
  }

  /** A browser of its own beside the warm one, on the Chromium a window (or any use) needs, held to the same network. */
  async function launchDedicated(dedicated: DedicatedBrowserOptions) {
    const use = dedicated.chromium ?? (dedicated.headless ? 'any' : 'window');
    const target = await chooseChromium({ configuredPath: config.browserExecutablePath, driver, use });
    return launchDedicatedBrowser({
      ...dedicated, driver: options.driver, executablePath: target.executablePath, env: { ...target.env, ...dedicated.env },
      logger, network: options.network, killAfterMs,
    }, createBrowserPool);
  }

  return {
    cookieJar,
    openContexts: () => open,
    browserPid: () => warm.pid(),
    launchDedicated,
    async withContext(options, fn, limits = {}) {
      if (closing) return { status: 'aborted', error: new BrowserPoolClosedError() };
      const controller = new AbortController();
      const timer = limits.timeoutMs === undefined ? undefined
        : setTimeout(() => controller.abort(new ContextTimeoutError(limits.timeoutMs!)), limits.timeoutMs);
      const onAbort = () => controller.abort(new ContextAbortedError(limits.signal?.reason));
      if (limits.signal?.aborted) onAbort();
      else limits.signal?.addEventListener('abort', onAbort, { once: true });
      const result = run(options, fn, controller);
      running.set(controller, result);
      try {
        return await result;
      } finally {
        clearTimeout(timer);
        limits.signal?.removeEventListener('abort', onAbort);
        running.delete(controller);
      }
    },
    close() {
      closing ??= (async () => {
        for (const controller of running.keys()) controller.abort(new BrowserPoolClosedError());
        // Each run closes its context within the kill timer, or kills the browser.
        await settleWithin(Promise.allSettled(running.values()), killAfterMs + COOKIE_READ_MS + 1000, undefined, () => undefined);
        await warm.close();
        budget.close();
      })();
      return closing;
    },
  };
}

function describe<T>(error: unknown, signal: AbortSignal): ContextOutcome<T> {
  const asError = error instanceof Error ? error : new Error(String(error));
  if (signal.aborted && error === signal.reason) {
    if (error instanceof BrowserDisconnectedError || error instanceof RunResourceError) return { status: 'error', error: asError };
    return { status: error instanceof ContextTimeoutError ? 'timeout' : 'aborted', error: asError };
  }
  return { status: 'error', error: asError };
}

/** True when a failed newContext means the browser itself is gone (killed, crashed, disconnected). */
function browserIsGone(handle: BrowserHandle, error: unknown): boolean {
  if (!handle.isConnected()) return true;
  return /has been closed|disconnected|Target closed|Connection closed|not connected/i.test(String((error as Error)?.message ?? error));
}
