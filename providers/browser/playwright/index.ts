import { BROWSER_CONTRACT_VERSION, type BrowserDriver } from '../../../kernel/contracts/browser.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { driverSettings } from '../shared/driver-settings.js';
import { packagedChromium } from '../shared/packaged-chromium.js';
import { removeLeftoverProfiles } from '../shared/profile-folders.js';
import { installedPlaywrightChromium } from './installed-chromium.js';

export interface PlaywrightDriverOptions {
  /** ffmpeg for recordings; undefined: `ffmpeg` on the PATH. */
  ffmpegPath?: string;
  /** Where the packaged headless Chromium is unpacked (DATA_DIR); without it none is offered. */
  dataDir?: string;
  logger?: Logger;
  /** BROWSER_USER: whom a launched Chromium runs as (see shared/browser-user.ts). */
  browserUser?: string;
}

// Playwright is large (about a second and tens of MB to load): only the engine in use loads it, at first launch.
const engine = () => import('./playwright-browser.js');

/** The browser engine over Playwright (the default engine). */
export function createPlaywrightDriver(options: PlaywrightDriverOptions = {}): BrowserDriver {
  const { dataDir, logger } = options;
  return {
    id: 'playwright',
    traces: true,
    launch: async (launchOptions) => (await engine()).launchPlaywright({ ...launchOptions, browserUser: options.browserUser, dataDir, logger }, options.ffmpegPath),
    installedExecutablePath: () => installedPlaywrightChromium(),
    packagedChromium: dataDir && logger ? () => packagedChromium({ dataDir, logger }) : undefined,
  };
}

export const playwrightBrowser = defineProvider({
  capability: 'browser',
  id: 'playwright',
  contractVersion: BROWSER_CONTRACT_VERSION,
  configSchema: driverSettings,
  create: async ({ config, dataDir, logger }) => {
    void removeLeftoverProfiles(dataDir); // at start: the profiles of a service killed with -9
    return createPlaywrightDriver({ ffmpegPath: config.FFMPEG_PATH, dataDir, logger, browserUser: config.BROWSER_USER });
  },
});
