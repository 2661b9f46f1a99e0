import { spawn } from 'node:child_process';
import { chown, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { BrowserLaunchOptions } from '../../../kernel/contracts/browser.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { browserEnvironment, ensureReachable, resolveBrowserUser, type BrowserUser } from './browser-user.js';
import { BASE_CHROMIUM_ARGS, LOOPBACK_DEBUGGING_ARGS } from './chromium-args.js';
import { markSandboxUnusable, sandboxArgs, sandboxFailure } from './chromium-sandbox.js';
import { makeProfileDir } from './profile-folders.js';

/** What the engines add to the contract's launch options (from their provider's configuration). */
export interface ChromiumLaunchOptions extends BrowserLaunchOptions {
  /** BROWSER_USER: see resolveBrowserUser (a service running as root drops to `nobody` by default). */
  browserUser?: string;
  /** DATA_DIR: folders in it on the way to the executable (a packaged Chromium) may be made searchable by that user. */
  dataDir?: string;
  logger?: Logger;
}

/** A Chromium process this service started, with its own throw-away profile. */
export interface LaunchedChromium {
  readonly pid: number;
  /** DevTools WebSocket URL, on 127.0.0.1. */
  readonly wsEndpoint: string;
  /** The DevTools pipe: messages to the browser (its fd 3) and from it (its fd 4). See devtools-pipe.ts. */
  readonly pipe: { readonly toBrowser: Writable; readonly fromBrowser: Readable };
  readonly profileDir: string;
  /** Resolves once the process has exited and its profile is removed. */
  readonly exited: Promise<void>;
  isRunning(): boolean;
  /** SIGKILL to the whole process group (renderers, zygotes, utilities). Idempotent. */
  kill(): void;
}

const STDERR_KEEP = 20;

// A service that exits without closing its pool (process.exit, an uncaught error) still ends its browsers.
const liveBrowsers = new Set<() => void>();
process.once('exit', () => {
  for (const kill of liveBrowsers) kill();
});

/**
 * Both engines drive Chromium over the DevTools protocol; launching it here (instead of through each
 * engine) gives one process-group kill, one profile clean-up and a loopback DevTools URL for both.
 */
export async function launchChromium(options: ChromiumLaunchOptions): Promise<LaunchedChromium> {
  const executablePath = options.executablePath;
  if (!executablePath) throw new Error('launchChromium needs an executablePath');
  let user = resolveBrowserUser(options.browserUser);
  if (user) {
    try {
      await reachableExecutable(executablePath, user, options.dataDir);
      // Its profile goes in DATA_DIR (or the temporary folder without one): that user must get there too.
      await ensureReachable(path.join(options.dataDir ?? os.tmpdir(), 'profile'), user, options.dataDir);
    } catch (error) {
      user = keepServiceUser(error, options);
    }
  }
  const runsAsRoot = !user && process.getuid?.() === 0;
  try {
    return await launchOnce(options, user, sandboxArgs(executablePath, runsAsRoot));
  } catch (error) {
    const failure = error instanceof StartupError && !runsAsRoot ? sandboxFailure(error.stderr) : undefined;
    if (failure === undefined || sandboxArgs(executablePath, false).length > 0) throw error;
    markSandboxUnusable(executablePath, failure, options.logger);
    return launchOnce(options, user, sandboxArgs(executablePath, false));
  }
}

/** Chromium exited before it served DevTools; `stderr` holds its last lines. */
class StartupError extends Error {
  constructor(message: string, readonly stderr: readonly string[]) {
    super(message);
  }
}

const keptServiceUser = new Set<string>();

/**
 * The default user (nobody) cannot reach Chromium or DATA_DIR, say in /root: it runs as the service does,
 * without a sandbox, rather than not at all, with one warning saying what to change. A BROWSER_USER the
 * operator chose is never given up: that is an error.
 */
function keepServiceUser(error: unknown, options: ChromiumLaunchOptions): undefined {
  if (options.browserUser !== undefined || !(error instanceof Error)) throw error;
  if (!keptServiceUser.has(error.message)) {
    keptServiceUser.add(error.message);
    options.logger?.warn({ reason: error.message }, 'Chromium runs as the service\'s own user (root) without its sandbox: a ' +
      'compromised page could read everything the service can. Put Chromium and DATA_DIR where every user may pass, ' +
      'or set BROWSER_USER to a user who can reach them');
  }
  return undefined;
}

async function reachableExecutable(executablePath: string, user: BrowserUser, dataDir: string | undefined): Promise<void> {
  await ensureReachable(executablePath, user, dataDir);
  const info = await stat(executablePath);
  const bit = info.uid === user.uid ? 0o100 : info.gid === user.gid ? 0o010 : 0o001;
  if (!(info.mode & bit)) throw new Error(`${executablePath} cannot be run by the browser's user ${user.name}: make it executable by all (chmod a+rx)`);
}

async function launchOnce(options: ChromiumLaunchOptions, user: BrowserUser | undefined, sandbox: string[]): Promise<LaunchedChromium> {
  // DATA_DIR/browser-profiles: the leftovers of a service killed with -9 are removed at the next launch.
  const profileDir = await makeProfileDir(options.dataDir);
  if (user) {
    // Its profile is the one folder it owns; the pipes it talks over are inherited, whatever its user.
    await chown(profileDir, user.uid, user.gid);
    await ensureReachable(profileDir, user, options.dataDir);
  }
  const args = [
    ...sandbox,
    ...BASE_CHROMIUM_ARGS,
    ...(options.headless ? ['--headless'] : []),
    ...LOOPBACK_DEBUGGING_ARGS,
    // The DevTools pipe (fds 3 and 4), which an engine may drive the browser over: when this process dies,
    // even by SIGKILL, the pipe closes and Chromium quits, so no browser outlives the service.
    '--remote-debugging-pipe',
    `--user-data-dir=${profileDir}`,
    ...options.args,
    'about:blank',
  ];
  const child = spawn(options.executablePath!, args, {
    // Its own process group, so one signal reaches every Chromium process.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    env: browserEnvironment(process.env, options.env, profileDir, user),
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
  let running = true;
  const kill = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  liveBrowsers.add(kill);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      running = false;
      liveBrowsers.delete(kill);
      kill(); // stragglers of the group, if any
      void rm(profileDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined).then(() => resolve());
    });
    child.once('error', () => {
      running = false;
      liveBrowsers.delete(kill);
      void rm(profileDir, { recursive: true, force: true }).catch(() => undefined).then(() => resolve());
    });
  });

  const stderr: string[] = [];
  try {
    const wsEndpoint = await new Promise<string>((resolve, reject) => {
      let buffer = '';
      const timer = setTimeout(
        () => reject(new Error(`Chromium did not start within ${options.timeoutMs} ms (${options.executablePath})`)),
        options.timeoutMs,
      );
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          stderr.push(line);
          if (stderr.length > STDERR_KEEP) stderr.shift();
          const match = /DevTools listening on (ws:\/\/\S+)/.exec(line);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`Cannot start Chromium at ${options.executablePath}: ${error.message}`));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        // Its last words may still be in the pipe when the exit is reported: they say why (e.g. no sandbox).
        const fail = () => {
          const last = [...stderr, ...(buffer ? [buffer] : [])];
          reject(new StartupError(`Chromium exited at start-up (${signal ?? `code ${code}`}): ${last.slice(-5).join(' | ')}`, last));
        };
        if (child.stderr!.readableEnded) return fail();
        child.stderr!.once('end', fail);
        setTimeout(fail, 500);
      });
    });
    // Keep draining stderr (a full pipe would stall Chromium) without keeping it.
    child.stderr!.removeAllListeners('data');
    child.stderr!.resume();
    const pipe = { toBrowser: child.stdio[3] as Writable, fromBrowser: child.stdio[4] as Readable };
    return { pid: child.pid!, wsEndpoint, pipe, profileDir, exited, isRunning: () => running, kill };
  } catch (error) {
    kill();
    await exited;
    throw error;
  }
}

/** Launches Chromium and hands it to `drive` (an engine connecting to it); a browser the engine fails to take is killed. */
export async function driveLaunchedChromium<T>(options: ChromiumLaunchOptions, drive: (launched: LaunchedChromium) => Promise<T>): Promise<T> {
  const launched = await launchChromium(options);
  try {
    return await drive(launched);
  } catch (error) {
    launched.kill();
    throw error;
  }
}
