import type { BrowserPool } from './contracts/browser-pool.js';

const refused = () => new Error('ROLE=api: this instance starts no browser; runs go to the instances with ROLE=worker or all');

/** ROLE=api: the browser service of an instance that starts no browser; whatever would launch one fails saying why. */
export function withoutBrowsers(pool: BrowserPool): BrowserPool {
  return {
    cookieJar: pool.cookieJar,
    openContexts: () => 0,
    browserPid: () => undefined,
    withContext: async () => ({ status: 'error', error: refused() }),
    launchDedicated: async () => { throw refused(); },
    close: () => pool.close(),
  };
}
