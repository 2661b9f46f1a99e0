import { performance } from 'node:perf_hooks';
import type { BrowserCookie, BrowserDriver, BrowserHandle, BrowserLaunchOptions, ContextHandle } from '../../kernel/contracts/browser.js';
import type { BrowserPool, ContextOutcome, CookieStore, DedicatedBrowserOptions, PoolContextOptions } from '../../kernel/contracts/browser-pool.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { BrowserNetwork } from './browser-network.js';
import { createCookieJar, createMemoryCookieStore } from './cookie-jar.js';
import { chooseChromium, type ChromiumTarget } from './choose-chromium.js';
import { chromiumAtStart } from './chromium-at-start.js';
import { BrowserDisconnectedError, BrowserPoolClosedError, ContextAbortedError, ContextTimeoutError, RunResourceError } from './pool-errors.js';
import { launchDedicatedBrowser } from './dedicated-browser.js';
import type { BrowserSource } from './browser-source.js';
import { RemoteSessions } from './remote-sessions.js';
import { createRunBudget, type RunBudgetOptions } from './run-budget.js';
import { settleWithin } from '../async/settle-within.js';
import { WarmBrowser } from './warm-browser.js';
import { WarmContexts, warmFitOf, type TakenContext } from './warm-contexts.js';

export interface BrowserPoolOptions {
  driver: BrowserDriver;
  config: {
    /** BROWSER_EXECUTABLE_PATH: the Chromium to launch, before any detected one. */
    browserExecutablePath?: string;
    /** BROWSER_WS_ENDPOINT: connect to this remote browser instead of launching one. */
    browserWsEndpoint?: string;
    /**
     * BROWSER_REMOTE_MODE, with BROWSER_WS_ENDPOINT: `shared` (default), one connection every run uses, reconnected
     * when lost; `per-run`, a connection (one grid session) per run, closed at its end (see remote-sessions.ts).
     */
    browserRemoteMode?: 'shared' | 'per-run';
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
  /**
   * BROWSER_WARM_CONTEXTS: how many contexts (each with a blank page) are kept ready on a launched warm browser,
   * less the runs holding contexts (see warm-contexts.ts). Default 0: none. Never with BROWSER_WS_ENDPOINT.
   */
  warmContexts?: number;
  /** BROWSER_WARM_IDLE_MS: warm contexts are closed after this long without a run starting or ending (default 2000 ms). */
  warmIdleMs?: number;
}

export type { BrowserPool, ContextLimits, ContextOutcome, PoolContextOptions } from '../../kernel/contracts/browser-pool.js';

/** How long a kept-cookies run's cookies may take to read at its end (the browser answers, not the page: a hung script does not hold it; a loaded machine can). */
const COOKIE_READ_MS = 10_000;
const COOKIES_NOT_READ = Symbol('cookies not read');
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
  const launchOptions = async (): Promise<BrowserLaunchOptions> => {
    const target = await chromium?.();
    return {
      executablePath: target?.executablePath,
      env: target?.env,
      wsEndpoint: config.browserWsEndpoint,
      headless,
      args: [...(options.args ?? []), ...budget.launchArgs],
      timeoutMs: options.launchTimeoutMs ?? 30_000,
    };
  };
  const source: BrowserSource = config.browserWsEndpoint && config.browserRemoteMode === 'per-run'
    ? new RemoteSessions(driver, launchOptions, logger, killAfterMs, config.browserWsEndpoint)
    : new WarmBrowser(driver, launchOptions, logger, killAfterMs, config.browserWsEndpoint ? {
      endpoint: config.browserWsEndpoint,
      windowMs: options.reconnectWindowMs ?? 30_000,
      initialDelayMs: 250,
      maxDelayMs: 5000,
    } : undefined);
  const running = new Map<AbortController, Promise<unknown>>();
  let open = 0;
  let closing: Promise<void> | undefined;
  // A remote browser's contexts are its operator's to count (a grid's sessions): none are made ahead there.
  const warmSlots = options.warmContexts && !config.browserWsEndpoint ? new WarmContexts({
    slots: options.warmContexts,
    busy: () => running.size,
    browser: () => (closing ? undefined : source.up()),
    contextOptions: (end) => budget.contextOptions(end),
    discard: async (handle, context) => { await closeContext(handle, context, false); },
    idleMs: options.warmIdleMs ?? 2000,
    logger,
  }) : undefined;

  /** Closes `context`, killing its browser when the close hangs (a wedged renderer). */
  async function closeContext(handle: BrowserHandle, context: ContextHandle, counted = true): Promise<{ videoPath?: string; tracePath?: string }> {
    try {
      const result = await settleWithin(context.close(), killAfterMs, CLOSE_TIMED_OUT, (error: unknown) => {
        if (handle.isConnected()) logger.warn({ err: error }, 'closing a browser context failed');
        return {};
      });
      if (result !== CLOSE_TIMED_OUT) return result;
      logger.warn({ pid: handle.pid }, `a browser context did not close within ${killAfterMs} ms`);
      source.kill(handle);
      return {};
    } finally {
      if (counted) open--;
    }
  }

  /** A warm context for the run when one fits (it is then the run's, counted as open), else undefined. */
  async function takeWarm(handle: BrowserHandle, asked: Omit<PoolContextOptions, 'keepCookies'>, loaded: BrowserCookie[],
    stopped: Promise<never>, end: (error: Error) => void): Promise<TakenContext | undefined> {
    const fit = warmSlots && warmFitOf(asked);
    if (!fit) return undefined;
    const taking = warmSlots!.take(handle, fit);
    let taken: TakenContext | undefined;
    try {
      taken = await Promise.race([taking, stopped]);
    } catch (error) {
      void taking.then((late) => late && closeContext(late.handle, late.context, false), () => undefined);
      throw error;
    }
    if (!taken) return undefined;
    if (loaded.length && !taken.context.addCookies) {
      await closeContext(handle, taken.context, false); // an engine that cannot add cookies later (contract 1.0)
      return undefined;
    }
    open++;
    taken.own(end);
    return taken;
  }

  /** Reads the context's cookies and resolves once they are read; `saved` settles once they are merged into the jar. */
  async function readCookies(context: ContextHandle, loaded: BrowserCookie[]): Promise<{ saved: Promise<void> }> {
    const read = await settleWithin(context.cookies(), COOKIE_READ_MS, COOKIES_NOT_READ, (error: unknown) => {
      logger.warn({ err: error }, 'reading the run\'s cookies failed; they are not kept');
      return undefined;
    });
    if (read === COOKIES_NOT_READ) logger.warn({ waitedMs: COOKIE_READ_MS }, 'the run\'s cookies were not read in time; they are not kept');
    const final = read === COOKIES_NOT_READ ? undefined : read;
    const saved = final ? cookieJar.merge(loaded, final).catch((error: unknown) => logger.warn({ err: error }, 'saving cookies failed')) : undefined;
    return { saved: saved ?? Promise.resolve() };
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
    const started = performance.now();
    try {
      const getting = source.get();
      try {
        handle = await Promise.race([getting, stopped]);
      } catch (error) {
        void getting.then((late) => source.release(late), () => undefined); // a per-run connection made too late
        throw error;
      }
      loaded = keepCookies ? await Promise.race([cookieJar.load(), stopped]) : [];
      const taken = await takeWarm(handle, asked, loaded, stopped, (error) => controller.abort(error));
      if (taken) {
        context = taken.context;
        if (loaded.length) await Promise.race([context.addCookies!(loaded), stopped]);
      } else {
        // A browser killed a moment ago may still look connected; its first newContext then fails.
        // Forget it and open the context on a freshly launched one instead (once).
        const first = handle;
        const opening = first.newContext({ ...contextOptions, cookies: loaded }).catch(async (error: unknown) => {
          if (signal.aborted || !browserIsGone(first, error)) throw error;
          source.kill(first);
          handle = await source.get();
          return handle.newContext({ ...contextOptions, cookies: loaded });
        }).then((created) => { open++; return created; });
        const openedOn = () => handle!;
        try {
          context = await Promise.race([opening, stopped]);
        } catch (error) {
          // Opened after the run was given up: close it all the same.
          void opening.then((late) => closeContext(openedOn(), late), () => undefined);
          throw error;
        }
      }
      logger.debug({ acquireMs: Math.round(performance.now() - started), warm: taken !== undefined }, 'browser context ready');
      const opened = () => handle!;
      // The browser (or the connection to a remote one) going away ends the run at once, with the reason.
      const unwatch = source.watch(opened(), (error) => controller.abort(error));
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
      // The jar is written while the context closes: both are done before the outcome is.
      const cookies = keepCookies && handle.isConnected() ? await readCookies(context, loaded) : undefined;
      const { videoPath, tracePath } = await closeContext(handle, context);
      await cookies?.saved;
      if (videoPath) outcome.videoPath = videoPath;
      if (tracePath) outcome.tracePath = tracePath;
    }
    if (handle) await source.release(handle);
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
    traces: options.driver.traces === true,
    cookieJar,
    openContexts: () => open,
    warmContexts: () => warmSlots?.count() ?? 0,
    browserPid: () => source.pid(),
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
        warmSlots?.refill(); // in the background: the slot this run frees gets a fresh context
      }
    },
    close() {
      closing ??= (async () => {
        for (const controller of running.keys()) controller.abort(new BrowserPoolClosedError());
        // Each run closes its context within the kill timer, or kills the browser.
        await settleWithin(Promise.allSettled(running.values()), killAfterMs + COOKIE_READ_MS + 1000, undefined, () => undefined);
        await warmSlots?.close();
        await source.close();
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
