import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { BrowserLaunchOptions } from '../../../kernel/contracts/browser.js';
import { BASE_CHROMIUM_ARGS, LOOPBACK_DEBUGGING_ARGS } from './chromium-args.js';

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
export async function launchChromium(options: BrowserLaunchOptions): Promise<LaunchedChromium> {
  if (!options.executablePath) throw new Error('launchChromium needs an executablePath');
  const profileDir = await mkdtemp(path.join(os.tmpdir(), 'taskloom-chromium-'));
  const args = [
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
  const child = spawn(options.executablePath, args, {
    // Its own process group, so one signal reaches every Chromium process.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    // Added to (not instead of) the service's environment, which a child inherits anyway.
    env: options.env ? { ...process.env, ...options.env } : undefined,
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
        reject(new Error(`Chromium exited at start-up (${signal ?? `code ${code}`}): ${stderr.slice(-5).join(' | ')}`));
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
export async function driveLaunchedChromium<T>(options: BrowserLaunchOptions, drive: (launched: LaunchedChromium) => Promise<T>): Promise<T> {
  const launched = await launchChromium(options);
  try {
    return await drive(launched);
  } catch (error) {
    launched.kill();
    throw error;
  }
}
