import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process wrote to stdout so far (pino JSON lines). */
  output(): string;
  /** Sends a signal and resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const MAIN = path.resolve('app/main.ts');

/**
 * Runs `taskloom` as its own process (as `npm start` does) and waits until it listens. `options.args` replaces
 * the sources' entry point (an installed package's bin, say), run by this Node.js from `options.cwd`.
 */
export async function spawnService(env: Record<string, string>, options: { args?: string[]; cwd?: string } = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, options.args ?? ['--import', 'tsx', MAIN], {
    cwd: options.cwd,
    env: { ...process.env, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    // Generous: a service run from the sources compiles them as it loads, which takes long on a loaded machine.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no listen line within 60 s; stderr: ${stderr}`));
    }, 60_000);
    const onData = () => {
      const match = stdout.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`exited with ${code} before listening: ${stderr}`)); });
  });
  return {
    child,
    baseUrl,
    output: () => stdout,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the entry point expecting it to exit (bad configuration); resolves to code and stderr. */
export function runToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}
