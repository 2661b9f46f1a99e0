// A queue worker in a process of its own, for the contract's kill -9 case: it takes one job, says so, and holds it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** How the child builds the provider's queue: the module exporting its definition, and the variables it reads. */
export interface QueueChildSpec {
  /** Absolute path of the module (e.g. providers/queue/pg-boss/index.ts). */
  module: string;
  /** The export holding the `defineProvider` definition. */
  exportName: string;
  /** Its `configSchema` values. */
  config: Record<string, unknown>;
}

export interface QueueChild {
  /** Resolves to the id of the job it took. */
  took: Promise<string>;
  /** kill -9. */
  kill(): void;
}

// Beside this file, as TypeScript in the repository (run through tsx) or as the built JavaScript of the package.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const MAIN = fileURLToPath(new URL(`./queue-child-main.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url));

export function spawnQueueWorker(spec: QueueChildSpec, queue: string, leaseMs: number): Promise<QueueChild> {
  const child = spawn(process.execPath, [...(FROM_SOURCE ? ['--import', 'tsx'] : []), MAIN], {
    env: { ...process.env, QUEUE_CHILD: JSON.stringify({ ...spec, queue, leaseMs }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const took = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /took (\S+)\n/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the queue child exited (${code}) before taking a job: ${stderr}`)));
  });
  took.catch(() => undefined);
  return Promise.resolve({ took, kill: () => { child.kill('SIGKILL'); } });
}
