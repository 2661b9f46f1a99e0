// The action runner on the Puppeteer engine (test/contracts/actions.contract.ts).
import { createBrowserPool, createMemoryCookieStore } from '../../layers/browser-pool/index.js';
import { createPuppeteerDriver } from '../../providers/browser/puppeteer/index.js';
import { actionsContract } from '../contracts/actions.contract.js';
import { silentLogger } from '../../testing/loggers.js';

actionsContract('puppeteer', (executablePath) => createBrowserPool({
  driver: createPuppeteerDriver(),
  config: { browserExecutablePath: executablePath },
  logger: silentLogger,
  cookieStore: createMemoryCookieStore(),
  killAfterMs: 2000,
}));
