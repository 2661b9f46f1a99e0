import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PackagedChromium } from '../../../kernel/contracts/browser.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { extractBrotliTar, inflateBrotli, type TarFs } from './brotli-files.js';
import { unpackOnce } from './unpack-once.js';

/**
 * The headless Chromium (Chromium's headless shell) that the npm package @sparticuz/chromium ships as Brotli
 * files: `chromium.br`, and `al2023.tar.br` with the libraries it needs that a bare machine lacks (NSS, NSPR,
 * expat). It is an optional dependency, so `npm install` brings a browser with nothing else installed.
 *
 * The package's own executablePath() unpacks into /tmp (shared by every user, emptied on reboot) and changes
 * this process's environment; only its files are used here, unpacked once into DATA_DIR/browsers and started
 * with the environment below. Not unpacked: `swiftshader.tar.br` (WebGL by software: every Chromium taskloom
 * launches runs with --disable-gpu) and the package's fonts.conf (it points at /tmp/fonts).
 */
export const PACKAGE = '@sparticuz/chromium';

/** Where the package is and what is in it; undefined when it is not installed. */
export interface PackageFiles {
  version: string;
  binDir: string;
  tarFs: TarFs;
}

export interface PackagedChromiumOptions {
  dataDir: string;
  logger: Logger;
  /** Default: the installed package (tests hand a small stand-in). */
  files?: () => Promise<PackageFiles | undefined>;
}

/**
 * A fontconfig file beside the browser: the machine's fonts (and font caches) when it has a configuration,
 * plus the package's Open Sans, so a bare machine still renders text. The folder is relative to this file, so
 * moving DATA_DIR keeps it working. No cache folder of its own: a relative one would land in the working
 * directory, and three fonts are read in no time.
 */
const FONTS_CONF = `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir prefix="relative">fonts</dir>
</fontconfig>
`;

const EXECUTABLE = 'chromium';
const unpacking = new Map<string, Promise<PackagedChromium>>();

/**
 * The packaged Chromium, unpacked into `dataDir/browsers/sparticuz-chromium-<version>` on first use (once per
 * process; later starts reuse it). Rejects with what to do when the package is missing or unusable here.
 */
export function packagedChromium(options: PackagedChromiumOptions): Promise<PackagedChromium> {
  const parentDir = path.join(options.dataDir, 'browsers');
  let pending = unpacking.get(parentDir);
  if (!pending) {
    pending = unpack(parentDir, options);
    unpacking.set(parentDir, pending);
    // A failure is tried again on the next call (disk full, then freed).
    pending.catch(() => unpacking.delete(parentDir));
  }
  return pending;
}

async function unpack(parentDir: string, options: PackagedChromiumOptions): Promise<PackagedChromium> {
  const files = await (options.files ?? (() => installedPackage()))();
  if (!files) {
    throw new Error(`The headless Chromium packaged in ${PACKAGE} is not installed either: reinstall with optional ` +
      'dependencies (npm install --include=optional) to use it');
  }
  const origin = `${PACKAGE} ${files.version}`;
  if (!options.files && (process.platform !== 'linux' || process.arch !== 'x64')) {
    throw new Error(`The headless Chromium packaged in ${origin} is built for Linux on x64 only, not ${process.platform} on ${process.arch}`);
  }
  const name = `sparticuz-chromium-${files.version}`;
  const started = Date.now();
  let result;
  try {
    result = await unpackOnce({
      parentDir,
      name,
      isComplete: async (dir) => (await readdir(dir).catch(() => [] as string[])).includes(EXECUTABLE),
      async unpack(dir) {
        options.logger.info({ package: origin, dir: path.join(parentDir, name) }, 'unpacking the packaged headless Chromium (once)');
        await extractBrotliTar(files.tarFs, path.join(files.binDir, 'al2023.tar.br'), dir);
        await extractBrotliTar(files.tarFs, path.join(files.binDir, 'fonts.tar.br'), dir, (entry) => entry.startsWith('fonts/'));
        await writeFile(path.join(dir, 'fonts.conf'), FONTS_CONF);
        // The executable last: its presence is what marks a complete folder.
        await inflateBrotli(path.join(files.binDir, 'chromium.br'), path.join(dir, EXECUTABLE), 0o755);
      },
    });
  } catch (error) {
    throw new Error(`The headless Chromium packaged in ${origin} could not be unpacked into ${parentDir}: ` +
      `${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (result.unpacked) {
    options.logger.info({ package: origin, dir: result.dir, ms: Date.now() - started }, 'unpacked the packaged headless Chromium');
    await removeOtherVersions(parentDir, name, options.logger);
  }
  return {
    executablePath: path.join(result.dir, EXECUTABLE),
    env: { LD_LIBRARY_PATH: path.join(result.dir, 'lib'), FONTCONFIG_FILE: path.join(result.dir, 'fonts.conf') },
    origin,
    headlessOnly: true,
  };
}

/**
 * The installed package's version, its Brotli files and its tar reader, as resolved from `from` (default: this
 * file); undefined when it is not installed (npm install --omit=optional).
 */
export async function installedPackage(from: string = import.meta.url): Promise<PackageFiles | undefined> {
  let entry: string;
  try {
    // Resolved, not imported: importing it would set up AWS Lambda's environment in this process.
    entry = createRequire(from).resolve(PACKAGE);
  } catch {
    return undefined;
  }
  const root = path.resolve(path.dirname(entry), '..', '..');
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { name?: string; version?: string };
  if (manifest.name !== PACKAGE || !manifest.version) throw new Error(`${PACKAGE} is installed at ${root} in an unexpected layout`);
  const tarFs = createRequire(entry)('tar-fs') as TarFs;
  return { version: manifest.version, binDir: path.join(root, 'bin'), tarFs };
}

/** An upgraded package leaves the previous version's folder (about 200 MB) behind: remove it. */
async function removeOtherVersions(parentDir: string, keep: string, logger: Logger): Promise<void> {
  const names = await readdir(parentDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith('sparticuz-chromium-') && n !== keep)) {
    await rm(path.join(parentDir, name), { recursive: true, force: true })
      .then(() => logger.info({ dir: path.join(parentDir, name) }, 'removed an older unpacked Chromium'))
      .catch(() => undefined);
  }
}
