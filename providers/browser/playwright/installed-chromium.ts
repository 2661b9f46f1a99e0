import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** Where Playwright puts Chromium inside its `chromium-<revision>` folder (its own table), per platform. */
const CHROMIUM_LAYOUT: Record<string, string[]> = {
  'linux-x64': ['chrome-linux64', 'chrome'],
  'linux-arm64': ['chrome-linux-arm64', 'chrome'],
};

/**
 * Playwright's downloaded Chromium (`npx playwright install chromium`), when there is one, without loading
 * Playwright (about a second and 90 MB, at every start-up where its browsers are present): the path follows
 * Playwright's own rules, from its browsers folder and the revision its browsers.json names. Where those rules
 * are not followed here (another platform, a revision override, an unknown layout in a folder that exists),
 * Playwright itself is asked.
 */
export async function installedPlaywrightChromium(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const known = knownChromiumPath(env);
  if (known === null) return undefined;
  if (known !== undefined && existsSync(known)) return known;
  try {
    const { chromium } = await import('playwright');
    const candidate = chromium.executablePath();
    return candidate && existsSync(candidate) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where Playwright's Chromium is by Playwright's rules; null when its folder is absent (nothing installed,
 * nothing to ask); undefined when unsure.
 */
export function knownChromiumPath(env: NodeJS.ProcessEnv): string | null | undefined {
  const root = playwrightBrowsersDir(env);
  const revision = chromiumRevision();
  if (root === undefined || revision === undefined) return undefined;
  const dir = path.join(root, `chromium-${revision}`);
  if (!existsSync(dir)) return null;
  const layout = process.platform === 'linux' ? CHROMIUM_LAYOUT[`linux-${os.arch()}`] : undefined;
  return layout ? path.join(dir, ...layout) : undefined;
}

/** The Chromium revision this Playwright downloads (playwright-core's browsers.json); undefined when overridden or unreadable. */
function chromiumRevision(): string | undefined {
  try {
    const core = path.dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
    const { browsers } = JSON.parse(readFileSync(path.join(core, 'browsers.json'), 'utf8')) as {
      browsers: { name: string; revision: string; revisionOverrides?: Record<string, string> }[];
    };
    const chromium = browsers.find((b) => b.name === 'chromium');
    // An override applies to some platforms only (Playwright works out which): leave it to Playwright.
    if (!chromium || Object.keys(chromium.revisionOverrides ?? {}).length > 0) return undefined;
    return /^\d+$/.test(chromium.revision) ? chromium.revision : undefined;
  } catch {
    return undefined;
  }
}

/** Playwright's reading of a setting: the variable, else npm's config forms of it. */
const setting = (env: NodeJS.ProcessEnv, name: string) =>
  env[name] ?? env[`npm_config_${name.toLowerCase()}`] ?? env[`npm_package_config_${name.toLowerCase()}`];

/**
 * Where Playwright keeps its browsers, by its own rules: PLAYWRIGHT_BROWSERS_PATH (`0`: inside the package),
 * else the user's cache folder. Playwright's own variables, read here only to find its Chromium without loading
 * it; undefined when unsure (then Playwright is asked).
 */
export function playwrightBrowsersDir(env: NodeJS.ProcessEnv): string | undefined {
  const configured = setting(env, 'PLAYWRIGHT_BROWSERS_PATH');
  if (configured === '0') {
    try {
      const manifest = createRequire(import.meta.url).resolve('playwright-core/package.json');
      return path.join(path.dirname(manifest), '.local-browsers');
    } catch {
      return undefined;
    }
  }
  if (configured) return path.resolve(setting(env, 'INIT_CWD') || process.cwd(), configured);
  if (process.platform === 'linux') return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'ms-playwright');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'ms-playwright');
  return undefined;
}
