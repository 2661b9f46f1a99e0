import { BROWSER_CONTRACT_VERSION, type BrowserDriver } from '../../../kernel/contracts/browser.js';
import { defineProvider } from '../../../kernel/contracts/provider.js';

export interface PlaywrightDriverOptions {
  /** ffmpeg for recordings; undefined: `ffmpeg` on the PATH. */
  ffmpegPath?: string;
}

// Playwright is large (about a second and tens of MB to load): only the engine in use loads it, at first launch.
const engine = () => import('./playwright-browser.js');

/** The browser engine over Playwright (the default engine). */
export function createPlaywrightDriver(options: PlaywrightDriverOptions = {}): BrowserDriver {
  return {
    id: 'playwright',
    launch: async (launchOptions) => (await engine()).launchPlaywright(launchOptions, options.ffmpegPath),
    installedExecutablePath: async () => (await engine()).installedPlaywrightChromium(),
  };
}

export const playwrightBrowser = defineProvider({
  capability: 'browser',
  id: 'playwright',
  contractVersion: BROWSER_CONTRACT_VERSION,
  create: async ({ config }) => createPlaywrightDriver({ ffmpegPath: config.ffmpegPath }),
});
