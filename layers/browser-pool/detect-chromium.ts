import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** No Chromium to launch. The message tells the operator what to do. */
export class ChromiumNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChromiumNotFoundError';
  }
}

export interface DetectChromiumOptions {
  /** BROWSER_EXECUTABLE_PATH: when set it must exist, nothing else is tried. */
  configuredPath?: string;
  /** The engine's own downloaded browser, when it has one. */
  enginePath?: string;
  /** Directories to search, PATH-style; defaults to the service's PATH. */
  searchPath?: string;
  /** A browser without a window: the lighter headless shell is preferred when installed. */
  headless?: boolean;
}

export const INSTALL_CHROMIUM = 'install chromium (apt-get install chromium)';

/** Full browsers: they can show a window. */
export const NAMES_ON_PATH: readonly string[] = ['chromium', 'chromium-browser', 'google-chrome'];
/**
 * Chromium's headless shell (Debian's chromium-headless-shell; what Playwright runs for headless by default)
 * opens a context with about a tenth of the full browser's CPU, so headless runs use it when it is there.
 */
export const HEADLESS_NAMES_ON_PATH: readonly string[] = ['chromium-headless-shell', 'chrome-headless-shell'];

/**
 * The Chromium to launch, without the packaged fallback (see chooseChromium): the configured one, else the
 * engine's own, else (for headless use) a headless shell on the PATH, else the first of NAMES_ON_PATH.
 */
export function detectChromium(options: DetectChromiumOptions): string {
  if (options.configuredPath) return configuredChromium(options.configuredPath);
  if (options.enginePath && isExecutable(options.enginePath)) return options.enginePath;
  const names = options.headless ? [...HEADLESS_NAMES_ON_PATH, ...NAMES_ON_PATH] : NAMES_ON_PATH;
  const found = findOnPath(names, options.searchPath);
  if (found) return found;
  throw new ChromiumNotFoundError(`Chromium not found: set BROWSER_EXECUTABLE_PATH or ${INSTALL_CHROMIUM}`);
}

/** BROWSER_EXECUTABLE_PATH, which must be there: nothing else is tried when it is set. */
export function configuredChromium(configuredPath: string): string {
  if (isExecutable(configuredPath)) return configuredPath;
  throw new ChromiumNotFoundError(
    `Chromium not found at ${configuredPath}: set BROWSER_EXECUTABLE_PATH to an executable Chromium or Chrome, ` +
      `or unset it and ${INSTALL_CHROMIUM}`,
  );
}

/** The first of `names` in the first directory holding it, names in order of preference. */
export function findOnPath(names: readonly string[], searchPath?: string): string | undefined {
  // Looking a program up on the PATH, as a shell would: not configuration.
  const dirs = (searchPath ?? process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
