// A project outside the repository that installs taskloom as a user gets it: `npm pack` of the built checkout
// and of the example providers, installed from those tarballs (and the npm registry, for their dependencies).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve('.');
/** The example packages, by folder under examples/ and package name. */
export const EXAMPLES = { sqlite: 'taskloom-sqlite-storage', proxyHeader: 'taskloom-proxy-header-auth' } as const;
const EXAMPLE_DIRS = ['examples/sqlite-storage', 'examples/proxy-header-auth'];

export interface PackedProject {
  /** The project's folder (under the system's temporary directory). */
  dir: string;
  /** Runs `node <args>` there with this Node.js; resolves what it printed and how it ended. */
  node(args: string[], options?: { timeoutMs?: number }): SpawnSyncReturns<string>;
  /** Removes the project. */
  remove(): Promise<void>;
}

/** The environment for npm: none of the `npm_*` variables of an `npm test` that runs us (they name this checkout). */
function npmEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  // Puppeteer (a dependency) would download a browser on install; taskloom uses the system's Chromium.
  return { ...env, PUPPETEER_SKIP_DOWNLOAD: 'true', npm_config_update_notifier: 'false' };
}

/** The environment for a `node --test` there: not a child of this test run (which would take over its report). */
function nodeEnv(): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _parent, ...env } = process.env;
  return env;
}

function run(command: string, args: string[], cwd: string, timeoutMs: number, env = npmEnv()): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  return result;
}

function check(what: string, result: SpawnSyncReturns<string>): SpawnSyncReturns<string> {
  if (result.status !== 0) {
    throw new Error(`${what} exited ${result.status ?? result.signal}:\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`);
  }
  return result;
}

/** Why this machine cannot pack and install (no npm), or false. */
export function packingSkip(): string | false {
  const npm = spawnSync('npm', ['--version'], { encoding: 'utf8', env: npmEnv() });
  return npm.status === 0 ? false : 'npm is not on the PATH: the package cannot be packed and installed';
}

/** Builds the checkout, packs it and the examples, and installs the tarballs into a fresh project. */
export async function installPackedProject(): Promise<PackedProject> {
  check('ensure-built', run(process.execPath, ['scripts/ensure-built.mjs'], ROOT, 300_000, process.env));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'taskloom-third-party-'));
  const packs = path.join(dir, 'packs');
  await fs.mkdir(packs);
  // The checkout was built above: no prepare script again.
  const packed = check('npm pack', run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs, ROOT, ...EXAMPLE_DIRS.map((d) => path.join(ROOT, d))], ROOT, 120_000));
  const tarballs = (JSON.parse(packed.stdout) as Array<{ filename: string }>).map((entry) => path.join(packs, entry.filename));

  const app = path.join(dir, 'app');
  await fs.mkdir(app);
  await fs.writeFile(path.join(app, 'package.json'), `${JSON.stringify({
    name: 'taskloom-third-party-check',
    private: true,
    type: 'module',
    // better-sqlite3 compiles its native part on install (npm runs no dependency's install script unasked).
    allowScripts: { 'better-sqlite3': true },
  }, null, 2)}\n`);
  // The third party's own development dependencies: types for the type-check of the examples.
  const devTypes = ['@types/node@^20.19.0', '@types/better-sqlite3@^7.6.0'];
  check('npm install', run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs, ...devTypes], app, 600_000));
  return {
    dir: app,
    node: (args, options = {}) => run(process.execPath, args, app, options.timeoutMs ?? 300_000, nodeEnv()),
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}
