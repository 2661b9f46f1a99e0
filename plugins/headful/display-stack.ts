import type { ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../kernel/contracts/logger.js';
import { freePort, readDisplayNumber, waitForPort } from './process-readiness.js';
import { SupervisedProcess } from './supervised-process.js';
import { writeRfbAuthFile } from './vnc-password.js';

export interface DisplayStackOptions {
  /** NOVNC_PORT: where websockify serves noVNC and relays to the VNC server. */
  novncPort: number;
  /** The service's listen address: noVNC listens where the service does. */
  host: string;
  password(): Promise<string>;
  /** Where x11vnc's password file lives while the stack runs (under DATA_DIR, with the service's other secrets). */
  stateDir: string;
  logger: Logger;
  /** noVNC's files (Debian package `novnc`). */
  webDir?: string;
  /** The loopback port websockify relays viewers to (vnc-gateway.ts), which reaches x11vnc at `vncPort()`. */
  viewerPort: number;
}

/** The virtual display of the headful session, its VNC server and noVNC, each kept running. */
export interface DisplayStack {
  /** `:N` once Xvfb serves; undefined when it is not up within `timeoutMs`. */
  display(timeoutMs: number): Promise<string | undefined>;
  /** True while Xvfb, x11vnc and websockify all run. */
  isRunning(): boolean;
  /** The loopback port of x11vnc once it runs. */
  vncPort(): number | undefined;
  stop(): Promise<void>;
}

const READY_MS = 15_000;
/** The virtual screen; the headful browser's window fills it. */
export const SCREEN_SIZE = { width: 1280, height: 800 } as const;
const SCREEN = `${SCREEN_SIZE.width}x${SCREEN_SIZE.height}x24`;
const ANY_HOST = new Set(['0.0.0.0', '::', '']);

/** Starts Xvfb, then x11vnc on its display, then websockify in front of x11vnc; resolves at once. */
export function startDisplayStack(options: DisplayStackOptions): DisplayStack {
  const { logger } = options;
  const webDir = options.webDir ?? '/usr/share/novnc';
  let displayNumber: number | undefined;
  let vncPort: number | undefined;
  const authFile = path.join(options.stateDir, 'vnc-passwd');

  const xvfb = new SupervisedProcess({
    name: 'Xvfb',
    command: 'Xvfb',
    // -displayfd picks a free display the first time; a restart asks for the same one, which the browser used.
    args: () => [...(displayNumber === undefined ? [] : [`:${displayNumber}`]), '-displayfd', '3', '-screen', '0', SCREEN, '-nolisten', 'tcp'],
    extraPipes: 1,
    ready: async (child) => { displayNumber = await readDisplayNumber(child, READY_MS); },
    installHint: 'apt-get install xvfb',
  }, logger.child({ helper: 'xvfb' }));
  const x11vnc = new SupervisedProcess({
    name: 'x11vnc',
    command: 'x11vnc',
    args: () => [
      '-display', `:${displayNumber}`, '-rfbauth', authFile, '-rfbport', String(vncPort),
      // Reachable from this machine only: remote viewers come through noVNC, which asks for the password.
      '-localhost', '-forever', '-shared', '-quiet',
      // The viewer's title: which instance's display it shows, when several serve one deployment.
      '-desktop', `taskloom (${os.hostname()}, pid ${process.pid})`,
    ],
    ready: (child) => waitForPort('127.0.0.1', vncPort!, READY_MS, child),
    installHint: 'apt-get install x11vnc',
  }, logger.child({ helper: 'x11vnc' }));
  const websockify = new SupervisedProcess({
    name: 'websockify',
    command: 'websockify',
    args: () => ['--web', webDir, `${options.host}:${options.novncPort}`, `127.0.0.1:${options.viewerPort}`],
    ready: (child: ChildProcess) => waitForPort(ANY_HOST.has(options.host) ? '127.0.0.1' : options.host, options.novncPort, READY_MS, child),
    installHint: 'apt-get install websockify novnc',
  }, logger.child({ helper: 'websockify' }));

  let stopping = false;
  const starting = (async () => {
    await mkdir(options.stateDir, { recursive: true, mode: 0o700 });
    xvfb.start();
    await xvfb.ready();
    if (stopping) return;
    await writeRfbAuthFile(await options.password(), authFile);
    vncPort = await freePort();
    if (stopping) return;
    x11vnc.start();
    await x11vnc.ready();
    if (stopping) return;
    websockify.start();
    await websockify.ready();
    logger.info({ display: `:${displayNumber}`, novncPort: options.novncPort }, 'headful display is served through noVNC');
  })().catch((error: unknown) => logger.error({ reason: error instanceof Error ? error.message : String(error) }, 'the headful display could not start'));

  return {
    async display(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => { timer = setTimeout(resolve, timeoutMs); });
      await Promise.race([xvfb.ready().catch(() => undefined), timeout]);
      clearTimeout(timer);
      return xvfb.isRunning() && displayNumber !== undefined ? `:${displayNumber}` : undefined;
    },
    isRunning: () => xvfb.isRunning() && x11vnc.isRunning() && websockify.isRunning(),
    vncPort: () => (x11vnc.isRunning() ? vncPort : undefined),
    async stop() {
      stopping = true;
      // The VNC side first: it is a client of the display.
      await websockify.stop();
      await x11vnc.stop();
      await xvfb.stop();
      // Let a start in progress reach a stopping check before its password file goes.
      await Promise.race([starting, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      await rm(authFile, { force: true });
    },
  };
}
