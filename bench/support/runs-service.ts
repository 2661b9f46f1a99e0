import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { NodeChild } from './children.js';

/**
 * Compiles the service as `npm start` runs it (tsconfig.build.json), into `.tmp/bench-dist` so the real `dist/`
 * is left alone, and resolves to the entry point. The service's memory is measured on this build: the `tsx`
 * loader of `npm run dev` adds some 60 MB of its own. Type errors elsewhere do not stop the emit.
 */
export function buildService(): string {
  const outDir = path.resolve('.tmp/bench-dist');
  fs.rmSync(outDir, { recursive: true, force: true });
  const tsc = path.resolve('node_modules/typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir], { encoding: 'utf8' });
  const main = path.join(outDir, 'kernel/main.js');
  if (!fs.existsSync(main)) throw new Error(`building the service failed:\n${result.stdout}${result.stderr}`);
  return main;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Runs `node <main>` (plain JavaScript, no loader) on `port`; killed on any exit of the bench. */
export function spawnBuilt(main: string, port: number, env: Record<string, string>): NodeChild {
  const child = spawn(process.execPath, [main], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
