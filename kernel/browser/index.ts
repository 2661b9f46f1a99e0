// The engine-independent browser layer plugins use (as `services.browser`): one warm browser, a fresh
// context per run that always closes, kill timers, crash recovery and the cookie jar.
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
export { BrowserPoolClosedError, ContextAbortedError, ContextTimeoutError } from './pool-errors.js';
export { COOKIE_JAR_KEY, settingsCookieStore } from './settings-cookie-store.js';
// Beside the warm browser: one browser launched for its own purpose (the headful session), and a bare
// DevTools connection to a browser this service launched.
export { launchDedicatedBrowser, type DedicatedBrowser, type DedicatedBrowserOptions } from './dedicated-browser.js';
export { connectCdp, withCdp, type CdpConnection } from './cdp-connection.js';
// What every launched browser is held to: the outbound rule through a forward proxy, and blocked schemes.
export { createBrowserNetwork, type BrowserNetwork, type BrowserNetworkOptions } from './browser-network.js';
export { BLOCKED_SCHEMES, isBlockedNavigation } from './blocked-schemes.js';
export { cookieKey } from './cookie-jar.js';
