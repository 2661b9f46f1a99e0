import './runtime-tuned.js';
import { isEntryPoint } from './entry-point.js';
import { main, reportStartFailure } from '../kernel/main.js';

/**
 * The service's entry point (`npm start` runs `node dist/app/main.js`; `taskloom serve` calls `serve`): the kernel,
 * started with the built-in modules. They load after the runtime tuning above holds (loading is most of
 * start-up's allocation).
 */
export function serve(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return main(async () => (await import('./built-ins.js')).builtIns, env);
}

export { reportStartFailure };

if (isEntryPoint(import.meta.url)) serve().catch(reportStartFailure);
