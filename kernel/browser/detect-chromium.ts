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

const NAMES_ON_PATH = ['chromium', 'chromium-browser', 'google-chrome'];
/**
 * Chromium's headless shell (Debian's chromium-headless-shell; what Playwright runs for headless by default)
 * opens a context with about a tenth of the full browser's CPU, so headless runs use it when it is there.
 */
const HEADLESS_NAMES_ON_PATH = ['chromium-headless-shell', 'chrome-headless-shell'];

/**
 * The Chromium to launch: the configured one, else the engine's own, else (for headless use) a headless shell
 * on the PATH, else the first of NAMES_ON_PATH.
 */
export function detectChromium(options: DetectChromiumOptions): string {
  if (options.configuredPath) {
    if (isExecutable(options.configuredPath)) return options.configuredPath;
    throw new ChromiumNotFoundError(
      `Chromium not found at ${options.configuredPath}: set BROWSER_EXECUTABLE_PATH to an executable Chromium or Chrome, ` +
        'or unset it and install chromium (apt-get install chromium)',
    );
  }
  if (options.enginePath && isExecutable(options.enginePath)) return options.enginePath;
  // Looking a program up on the PATH, as a shell would: not configuration.
  const dirs = (options.searchPath ?? process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const names = options.headless ? [...HEADLESS_NAMES_ON_PATH, ...NAMES_ON_PATH] : NAMES_ON_PATH;
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  throw new ChromiumNotFoundError('Chromium not found: set BROWSER_EXECUTABLE_PATH or install chromium (apt-get install chromium)');
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
