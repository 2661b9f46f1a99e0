import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * Playwright's downloaded Chromium (`npx playwright install chromium`), when there is one. Playwright itself
 * answers where it is, but loading it costs about a second and 90 MB: it is loaded only when its browsers
 * folder holds a Chromium at all, which is the rare case (the service finds Chromium at start-up).
 */
export async function installedPlaywrightChromium(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const root = playwrightBrowsersDir(env);
  if (root !== undefined && !holdsChromium(root)) return undefined;
  try {
    const { chromium } = await import('playwright');
    const candidate = chromium.executablePath();
    return candidate && existsSync(candidate) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where Playwright keeps its browsers, by its own rules: PLAYWRIGHT_BROWSERS_PATH (`0`: inside the package),
 * else the user's cache folder. Playwright's own variables, read here only to know whether loading Playwright
 * is worth it; undefined when unsure (then Playwright is asked).
 */
export function playwrightBrowsersDir(env: NodeJS.ProcessEnv): string | undefined {
  const configured = env.PLAYWRIGHT_BROWSERS_PATH;
  if (configured === '0') {
    try {
      const manifest = createRequire(import.meta.url).resolve('playwright-core/package.json');
      return path.join(path.dirname(manifest), '.local-browsers');
    } catch {
      return undefined;
    }
  }
  if (configured) return path.resolve(env.INIT_CWD || process.cwd(), configured);
  if (process.platform === 'linux') return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'ms-playwright');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'ms-playwright');
  return undefined;
}

/** Playwright names its Chromium folders `chromium-<revision>`, `chromium_headless_shell-<revision>`, ... */
function holdsChromium(root: string): boolean {
  try {
    return readdirSync(root).some((name) => name.startsWith('chromium'));
  } catch {
    return false;
  }
}
