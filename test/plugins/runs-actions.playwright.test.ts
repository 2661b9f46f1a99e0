// The action runner on the Playwright engine (test/contracts/actions.contract.ts).
import { createBrowserPool, createMemoryCookieStore } from '../../layers/browser-pool/index.js';
import { createPlaywrightDriver } from '../../providers/browser/playwright/index.js';
import { actionsContract } from '../contracts/actions.contract.js';
import { silentLogger } from '../../testing/loggers.js';

actionsContract('playwright', (executablePath) => createBrowserPool({
  driver: createPlaywrightDriver(),
  config: { browserExecutablePath: executablePath },
  logger: silentLogger,
  cookieStore: createMemoryCookieStore(),
  killAfterMs: 2000,
}));
