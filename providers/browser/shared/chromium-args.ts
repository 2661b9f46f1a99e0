/**
 * Switches for every Chromium taskloom launches. The machine may have no internet: without the
 * background-networking switches Chromium keeps dialling update, sync and safe-browsing services.
 * No --no-sandbox: launch-chromium.ts adds it only where the sandbox cannot work (chromium-sandbox.ts).
 */
export const BASE_CHROMIUM_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--no-default-browser-check',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-client-side-phishing-detection',
  '--disable-domain-reliability',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
  // Parallel runs share one browser: keep pages in background contexts running at full speed.
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-hang-monitor',
  '--disable-popup-blocking',
  '--disable-prompt-on-repost',
  '--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,InterestFeedContentSuggestions',
  '--mute-audio',
  '--hide-scrollbars',
];

/** Debugging is reachable from this machine only; port 0 lets Chromium pick a free one. */
export const LOOPBACK_DEBUGGING_ARGS: readonly string[] = [
  '--remote-debugging-address=127.0.0.1',
  '--remote-debugging-port=0',
];
