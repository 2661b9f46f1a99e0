import type { BrowserDriver } from '../../kernel/contracts/browser.js';
import {
  ChromiumNotFoundError, configuredChromium, findOnPath, HEADLESS_NAMES_ON_PATH, INSTALL_CHROMIUM, isExecutable, NAMES_ON_PATH,
} from './detect-chromium.js';

/**
 * What the browser is for. `headless`: a headless shell is preferred (lighter). `any`: a full browser is
 * preferred, a headless one will do. `window`: it must be able to show a window (headful runs, noVNC).
 */
export type ChromiumUse = 'headless' | 'any' | 'window';

/** A Chromium to launch and the environment it needs. */
export interface ChromiumTarget {
  executablePath: string;
  /** Added to the service's environment for the browser process (the packaged browser's libraries and fonts). */
  env?: Record<string, string>;
}

export interface ChromiumChoice extends ChromiumTarget {
  /** How it was found, in the order tried. */
  source: 'BROWSER_EXECUTABLE_PATH' | 'engine' | 'PATH' | 'package';
  /** In words, for the start-up log line. */
  description: string;
  /** A headless shell: it cannot show a window. */
  headlessOnly: boolean;
}

export interface ChooseChromiumOptions {
  /** BROWSER_EXECUTABLE_PATH: when set it must exist, nothing else is tried. */
  configuredPath?: string;
  /** The engine: its own downloaded browser, and the Chromium packaged in an npm package it can unpack. */
  driver: Pick<BrowserDriver, 'installedExecutablePath' | 'packagedChromium'>;
  /** Directories to search, PATH-style; defaults to the service's PATH. */
  searchPath?: string;
  /** Default `any`. */
  use?: ChromiumUse;
}

const WINDOW_HINT = 'No Chromium that can show a window was found (a headless shell, such as chromium-headless-shell ' +
  `or the headless Chromium packaged with taskloom, cannot show one): ${INSTALL_CHROMIUM} or set BROWSER_EXECUTABLE_PATH ` +
  'to a full Chromium or Chrome';

/**
 * The Chromium to launch, tried in this order: BROWSER_EXECUTABLE_PATH; the engine's own downloaded browser;
 * chromium-headless-shell / chromium / google-chrome on the PATH (a headless shell first for headless use);
 * then the headless Chromium packaged in an npm package (not for a window). Throws ChromiumNotFoundError
 * saying what to install.
 */
export async function chooseChromium(options: ChooseChromiumOptions): Promise<ChromiumChoice> {
  const use = options.use ?? 'any';
  if (options.configuredPath) {
    const executablePath = configuredChromium(options.configuredPath);
    return { executablePath, source: 'BROWSER_EXECUTABLE_PATH', description: 'set by BROWSER_EXECUTABLE_PATH', headlessOnly: false };
  }
  const engine = await options.driver.installedExecutablePath?.().catch(() => undefined);
  if (engine && isExecutable(engine)) {
    return { executablePath: engine, source: 'engine', description: "the engine's own downloaded browser", headlessOnly: false };
  }
  const names = use === 'headless' ? [...HEADLESS_NAMES_ON_PATH, ...NAMES_ON_PATH]
    : use === 'any' ? [...NAMES_ON_PATH, ...HEADLESS_NAMES_ON_PATH] : NAMES_ON_PATH;
  const onPath = findOnPath(names, options.searchPath);
  if (onPath) {
    return { executablePath: onPath, source: 'PATH', description: 'found on the PATH', headlessOnly: isHeadlessShell(onPath) };
  }
  if (use === 'window') throw new ChromiumNotFoundError(WINDOW_HINT);
  const notFound = `Chromium not found: set BROWSER_EXECUTABLE_PATH or ${INSTALL_CHROMIUM}`;
  if (!options.driver.packagedChromium) throw new ChromiumNotFoundError(notFound);
  let packaged;
  try {
    packaged = await options.driver.packagedChromium();
  } catch (error) {
    throw new ChromiumNotFoundError(`${notFound}. ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!packaged) throw new ChromiumNotFoundError(notFound);
  return {
    executablePath: packaged.executablePath,
    env: packaged.env,
    source: 'package',
    description: `the ${packaged.headlessOnly ? 'headless ' : ''}Chromium packaged in ${packaged.origin}`,
    headlessOnly: packaged.headlessOnly,
  };
}

function isHeadlessShell(file: string): boolean {
  return HEADLESS_NAMES_ON_PATH.some((name) => file.endsWith(`/${name}`));
}
