import { BROWSER_CONTRACT_VERSION, type BrowserDriver } from '../../../kernel/contracts/browser.js';
import { defineProvider } from '../../../kernel/contracts/provider.js';

export interface PuppeteerDriverOptions {
  /** ffmpeg for recordings; undefined: `ffmpeg` on the PATH. */
  ffmpegPath?: string;
}

// Only the engine in use loads its library, at first launch.
const engine = () => import('./puppeteer-browser.js');

/** The browser engine over Puppeteer. */
export function createPuppeteerDriver(options: PuppeteerDriverOptions = {}): BrowserDriver {
  const remoteContexts = new Set<string>();
  return {
    id: 'puppeteer',
    launch: async (launchOptions) => (await engine()).launchPuppeteer(launchOptions, options.ffmpegPath, remoteContexts),
    installedExecutablePath: async () => (await engine()).installedPuppeteerChromium(),
  };
}

export const puppeteerBrowser = defineProvider({
  capability: 'browser',
  id: 'puppeteer',
  contractVersion: BROWSER_CONTRACT_VERSION,
  create: async ({ config }) => createPuppeteerDriver({ ffmpegPath: config.ffmpegPath }),
});
