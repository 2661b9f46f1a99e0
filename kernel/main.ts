import './runtime-tuned.js';
import { ConfigError, loadConfig } from './config.js';
import { isEntryPoint } from './entry-point.js';

/**
 * Start-up: config -> registry -> providers -> plugins -> listen; graceful shutdown on signals. Resolves once
 * listening; exits the process on a bad configuration and at shutdown. Runs when this file is the entry point
 * (`node dist/kernel/main.js`); `taskloom serve` imports and calls it.
 */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // Loaded here, after the runtime tuning of ./runtime-tuned.js holds: loading is most of start-up's allocation.
  const { createService } = await import('./server.js');
  const service = await createService(config);
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

/** The one line and exit code of a start-up that failed past the configuration (a port in use, a bad module). */
export function reportStartFailure(error: unknown): never {
  process.stderr.write(`taskloom failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

if (isEntryPoint(import.meta.url)) main().catch(reportStartFailure);
