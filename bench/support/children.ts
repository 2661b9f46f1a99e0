import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Every child and temporary directory the bench made; removed on any exit, including errors and signals. */
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

function cleanupSync(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
}

process.once('exit', cleanupSync);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    cleanupSync();
    process.exit(130);
  });
}

export function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export async function removeTempDir(dir: string): Promise<void> {
  await fs.promises.rm(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface NodeChild {
  child: ChildProcess;
  baseUrl: string;
  /** The last few KB the process wrote (stdout and stderr), for error messages. */
  tail(): string;
  /** SIGTERM, then SIGKILL after 5 s; resolves when the process is gone. */
  stop(): Promise<void>;
}

/**
 * Runs `node <script>` listening on `port` (the script reads it from the env it is given); TypeScript
 * sources go through the tsx loader, built JavaScript runs as `npm start` runs it.
 */
export function spawnNode(
  script: string,
  port: number,
  env: Record<string, string>,
  /** How long `stop` waits after SIGTERM before SIGKILL (a service finishing its runs needs longer). */
  stopGraceMs = 5_000,
): NodeChild {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, path.resolve(script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-8_192); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => { children.delete(child); resolve(); }));
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    tail: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `GET <baseUrl>/api/health` every `intervalMs` until it answers 200; rejects if the child dies first. */
export async function waitHealthy(proc: NodeChild, intervalMs = 20, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
      throw new Error(`process exited (${proc.child.exitCode ?? proc.child.signalCode}) before it was healthy:\n${proc.tail()}`);
    }
    try {
      const response = await fetch(`${proc.baseUrl}/api/health`);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  throw new Error(`no healthy answer within ${timeoutMs} ms:\n${proc.tail()}`);
}

export const median = (values: number[]) => percentile(values, 50);

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
