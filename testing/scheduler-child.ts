// A scheduler in a process of its own, for the shared-fires kill -9 case: it takes one fire, says so, and holds it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ScheduledJob } from '../kernel/contracts/scheduler.js';

/**
 * How the child opens a scheduler sharing the fixture's fires: a module exporting `exportName`, an async
 * function of `args` (JSON) resolving to the scheduler (its engine connections included).
 */
export interface SchedulerChildSpec {
  /** Absolute path of the module. */
  module: string;
  exportName: string;
  args: unknown;
}

export interface SchedulerChild {
  /** Resolves to `<key> <planned ms>` of the fire it took. */
  took: Promise<string>;
  /** kill -9. */
  kill(): void;
}

// Beside this file, as TypeScript in the repository (run through tsx) or as the built JavaScript of the package.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const MAIN = fileURLToPath(new URL(`./scheduler-child-main.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url));

/** Starts the child with `job`, its clock set so that the fire planned at `plannedMs` comes at once. */
export function spawnSchedulerChild(spec: SchedulerChildSpec, job: ScheduledJob, plannedMs: number): SchedulerChild {
  const child = spawn(process.execPath, [...(FROM_SOURCE ? ['--import', 'tsx'] : []), MAIN], {
    env: { ...process.env, SCHEDULER_CHILD: JSON.stringify({ ...spec, job, plannedMs }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const took = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /took (\S+ \d+)\n/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the scheduler child exited (${code}) before taking a fire: ${stderr}`)));
  });
  took.catch(() => undefined);
  return { took, kill: () => { child.kill('SIGKILL'); } };
}
