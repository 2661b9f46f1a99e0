// Remote browsers for the BROWSER_WS_ENDPOINT tests: a Playwright browser server, a bare Chromium with a
// DevTools port, and a TCP relay in front of either that can cut every connection (a dropped network link).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserServer } from 'playwright';
import { BASE_CHROMIUM_ARGS } from '../../../providers/browser/shared/chromium-args.js';
import { liveGroupMembers, waitFor } from '../../../testing/browser/chromium-processes.js';

/** A Playwright server (`chromium.launchServer`) on 127.0.0.1; `port` and `wsPath` let a test restart it in place. */
export async function launchPlaywrightServer(executablePath: string, at: { port?: number; wsPath: string }): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath, host: '127.0.0.1', port: at.port ?? 0, wsPath: at.wsPath, args: [...BASE_CHROMIUM_ARGS],
  });
}

/** Closes a Playwright server and waits until none of its Chromium processes is left. */
export async function closePlaywrightServer(server: BrowserServer): Promise<void> {
  const pid = server.process().pid;
  await server.close();
  if (pid !== undefined) await waitFor(() => liveGroupMembers(pid).length === 0, 5000, 'the server\'s Chromium to end');
}

export interface CdpChromium {
  pid: number;
  /** `ws://127.0.0.1:<port>/devtools/browser/<id>` */
  wsEndpoint: string;
  port: number;
  close(): Promise<void>;
}

/** A Chromium started as a grid would start it: `--remote-debugging-port=0`, its URL read from stderr. */
export async function launchCdpChromium(executablePath: string): Promise<CdpChromium> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'taskloom-remote-cdp-'));
  // A stand-in for someone else's browser, started by the tests (as root here): without a sandbox, as grids do.
  const child = spawn(executablePath, [
    '--no-sandbox', ...BASE_CHROMIUM_ARGS, '--headless', '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0',
    `--user-data-dir=${profile}`, 'about:blank',
  ], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  const kill = () => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } };
  const wsEndpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => { kill(); reject(new Error(`no DevTools URL within 20 s: ${seen}`)); }, 20_000);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        child.stderr!.resume();
        resolve(match[1]!);
      }
    });
  });
  return {
    pid: child.pid!,
    wsEndpoint,
    port: Number(new URL(wsEndpoint).port),
    async close() {
      kill();
      await waitFor(() => liveGroupMembers(child.pid!).length === 0, 5000, 'the DevTools Chromium to end');
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export interface TcpRelay {
  port: number;
  /** Destroys every open connection both ways, as a dropped link would; new ones are relayed again. */
  cut(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cut = () => { for (const socket of sockets) socket.destroy(); };
  return {
    port: (server.address() as net.AddressInfo).port,
    cut,
    close: () => new Promise<void>((resolve) => { cut(); server.close(() => resolve()); }),
  };
}

/** Chromium processes whose parent is `pid` (what a service would have launched itself). */
export function chromiumChildrenOf(pid: number): number[] {
  return readProcesses().filter((p) => p.ppid === pid && /chrom/i.test(p.comm)).map((p) => p.pid);
}

function readProcesses(): Array<{ pid: number; ppid: number; comm: string }> {
  const out: Array<{ pid: number; ppid: number; comm: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      out.push({ pid: Number(name), ppid, comm });
    } catch {
      // Ended while we looked.
    }
  }
  return out;
}
