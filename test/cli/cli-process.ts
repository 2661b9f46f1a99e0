// Runs the `taskloom` CLI as a real child process (through tsx, from the sources).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';

export const CLI = path.resolve('cli/main.ts');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a CLI child gets: this process's, without any TASKLOOM_* the developer may have set. */
export function cliEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TASKLOOM_')));
  return { ...clean, ...env };
}

/** Spawns `taskloom <args>` with stdio piped. */
export function spawnTaskloom(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs `taskloom <args>` to its end; rejects if it takes longer than `timeoutMs` (and kills it). */
export function runTaskloom(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliResult> {
  const child = spawnTaskloom(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`taskloom ${args.join(' ')} did not end within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A port on 127.0.0.1 where nothing listens (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs the dispatcher in this process with captured streams: for the many cases that need no process of their own. */
export async function runInProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const { runCli } = await import('../../cli/main.js');
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) => new Writable({ write(chunk, _encoding, done) { append(String(chunk)); done(); } });
  const code = await runCli(args, {
    stdout: sink((text) => { stdout += text; }),
    stderr: sink((text) => { stderr += text; }),
    env: cliEnv(env),
  });
  return { code, stdout, stderr };
}
