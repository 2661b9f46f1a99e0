import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** What Puppeteer's configuration says about its browsers (environment, .puppeteerrc, defaults). */
interface PuppeteerSettings {
  executablePath?: string;
  cacheDirectory?: string;
}

/**
 * Puppeteer's downloaded Chrome, when there is one (.puppeteerrc.cjs skips the download). Puppeteer itself
 * answers where it is, but loading it costs about a second and 35 MB: it is loaded only when its
 * configuration names a browser or its cache folder holds one, which is the rare case (the service finds
 * Chromium at start-up).
 */
export async function installedPuppeteerChromium(settings?: PuppeteerSettings): Promise<string | undefined> {
  const known = settings ?? (await puppeteerSettings());
  if (known && !known.executablePath && known.cacheDirectory && !holdsChrome(known.cacheDirectory)) return undefined;
  try {
    const { default: puppeteer } = await import('puppeteer');
    const candidate = await puppeteer.executablePath(); // a promise since Puppeteer 25
    return candidate && existsSync(candidate) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/** Puppeteer's own reading of its configuration (a small module); undefined when it cannot be read. */
async function puppeteerSettings(): Promise<PuppeteerSettings | undefined> {
  try {
    const { getConfiguration } = (await import('puppeteer/internal/getConfiguration.js')) as {
      getConfiguration(): PuppeteerSettings;
    };
    return getConfiguration();
  } catch {
    return undefined;
  }
}

/** Puppeteer's cache holds a folder per browser (`chrome`, `chrome-headless-shell`), one per version inside. */
function holdsChrome(cacheDirectory: string): boolean {
  return ['chrome', 'chrome-headless-shell'].some((browser) => {
    try {
      return readdirSync(path.join(cacheDirectory, browser)).length > 0;
    } catch {
      return false;
    }
  });
}
