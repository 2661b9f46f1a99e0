import { BROWSER_CONTRACT_VERSION, type BrowserDriver } from '../../../kernel/contracts/browser.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { driverSettings } from '../shared/driver-settings.js';
import { packagedChromium } from '../shared/packaged-chromium.js';
import { removeLeftoverProfiles } from '../shared/profile-folders.js';
import { installedPuppeteerChromium } from './installed-chromium.js';

export interface PuppeteerDriverOptions {
  /** ffmpeg for recordings; undefined: `ffmpeg` on the PATH. */
  ffmpegPath?: string;
  /** Where the packaged headless Chromium is unpacked (DATA_DIR); without it none is offered. */
  dataDir?: string;
  logger?: Logger;
  /** BROWSER_USER: whom a launched Chromium runs as (see shared/browser-user.ts). */
  browserUser?: string;
}

// Only the engine in use loads its library, at first launch.
const engine = () => import('./puppeteer-browser.js');

/** The browser engine over Puppeteer. */
export function createPuppeteerDriver(options: PuppeteerDriverOptions = {}): BrowserDriver {
  const { dataDir, logger } = options;
  const orphans = new Set<string>();
  return {
    id: 'puppeteer',
    launch: async (launchOptions) => (await engine()).launchPuppeteer({ ...launchOptions, browserUser: options.browserUser, dataDir, logger }, options.ffmpegPath, orphans),
    installedExecutablePath: () => installedPuppeteerChromium(),
    packagedChromium: dataDir && logger ? () => packagedChromium({ dataDir, logger }) : undefined,
  };
}

export const puppeteerBrowser = defineProvider({
  capability: 'browser',
  id: 'puppeteer',
  contractVersion: BROWSER_CONTRACT_VERSION,
  configSchema: driverSettings,
  create: async ({ config, dataDir, logger }) => {
    void removeLeftoverProfiles(dataDir); // at start: the profiles of a service killed with -9
    return createPuppeteerDriver({ ffmpegPath: config.FFMPEG_PATH, dataDir, logger, browserUser: config.BROWSER_USER });
  },
});
