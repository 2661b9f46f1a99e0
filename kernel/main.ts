import { ConfigError, loadConfig } from './config.js';
import type { TaskloomModule } from './registry.js';

/**
 * Start-up: config -> registry -> providers -> plugins -> listen; graceful shutdown on signals. Resolves once
 * listening; exits the process on a bad configuration and at shutdown. The kernel names no module: a composition
 * root (app/main.ts) hands it `modules` (loaded after the configuration, so after the runtime tuning), and
 * TASKLOOM_MODULES adds third-party ones.
 */
export async function main(modules: () => Promise<TaskloomModule>, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = configured(() => loadConfig(env));
  // Loaded here, after the runtime tuning of app/runtime-tuned.js holds: loading is most of start-up's allocation.
  const [{ createService }, { Registry }, { checkConfig }] = await Promise.all([
    import('./server.js'), import('./registry.js'), import('./module-config.js'),
  ]);
  const registry = new Registry();
  registry.addModule(await modules());
  await registry.load(config.modules);
  configured(() => checkConfig(config, registry));
  const service = await createService(config, { registry });
  const { app } = service;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 30 s; exiting');
      process.exit(1);
    }, 30_000);
    force.unref();
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
}

/** `read()`, or the one line of a bad configuration and exit code 1. */
function configured<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/** The one line and exit code of a start-up that failed past the configuration (a port in use, a bad module). */
export function reportStartFailure(error: unknown): never {
  process.stderr.write(`taskloom failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
