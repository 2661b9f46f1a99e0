import os from 'node:os';
import { defineLayer } from '../../kernel/contracts/provider.js';
import { createBrowserNetwork } from './browser-network.js';
import { createBrowserPool } from './browser-pool.js';
import { poolSettings } from './pool-settings.js';
import { settingsCookieStore } from './settings-cookie-store.js';

// The browser capability's layer: what plugins use as `services.browser` over whichever engine is chosen. One
// warm browser, a fresh context per run that always closes, kill timers, crash recovery, the run memory budget,
// the cookie jar, dedicated browsers beside it; every browser it launches held to the outbound rule (a forward
// proxy) and the blocked schemes.
export {
  createBrowserPool,
  type BrowserPool,
  type BrowserPoolOptions,
  type ContextLimits,
  type ContextOutcome,
  type PoolContextOptions,
} from './browser-pool.js';
export { createCookieJar, createMemoryCookieStore, type CookieJar, type CookieStore } from './cookie-jar.js';
export { ChromiumNotFoundError, detectChromium } from './detect-chromium.js';
export { chooseChromium, type ChooseChromiumOptions, type ChromiumChoice, type ChromiumTarget, type ChromiumUse } from './choose-chromium.js';
export {
  BrowserPoolClosedError, ContextAbortedError, ContextTimeoutError, RemoteBrowserBusyError, RemoteBrowserUnavailableError,
} from './pool-errors.js';
export { COOKIE_JAR_KEY, settingsCookieStore } from './settings-cookie-store.js';
export { launchDedicatedBrowser, type DedicatedBrowser, type DedicatedBrowserOptions } from './dedicated-browser.js';
export { connectCdp, withCdp, type CdpConnection } from './cdp-connection.js';
export { createBrowserNetwork, type BrowserNetwork, type BrowserNetworkOptions } from './browser-network.js';
export { BLOCKED_SCHEMES, isBlockedNavigation } from './blocked-schemes.js';
export { cookieKey } from './cookie-jar.js';

/** The browser pool over the chosen engine (BROWSER_ENGINE); lazy: no Chromium starts until a run asks for a context. */
export const browserPool = defineLayer({
  capability: 'browser',
  id: 'browser-pool',
  configSchema: poolSettings,
  async wrap(driver, { config, logger, outbound, storage }) {
    // Every browser launched here sends its traffic through the outbound rule (a forward proxy, started with the first).
    const network = createBrowserNetwork({ guard: outbound.guard, logger });
    const pool = createBrowserPool({
      driver,
      config: {
        browserExecutablePath: config.BROWSER_EXECUTABLE_PATH,
        browserWsEndpoint: config.BROWSER_WS_ENDPOINT,
        browserRemoteMode: config.BROWSER_REMOTE_MODE,
        runMemoryLimitMb: config.RUN_MEMORY_LIMIT_MB,
      },
      // One per run slot, as the kernel sizes them (MAX_CONCURRENT_RUNS, default the number of cores).
      warmContexts: config.BROWSER_WARM_CONTEXTS ?? config.MAX_CONCURRENT_RUNS ?? Math.max(1, os.availableParallelism()),
      warmIdleMs: config.BROWSER_WARM_IDLE_MS,
      logger: logger.child({ component: 'browser' }),
      cookieStore: storage && settingsCookieStore(storage.settings),
      network,
    });
    return {
      ...pool,
      close: async () => {
        await pool.close();
        await network.close(); // after every browser it served
      },
    };
  },
});
