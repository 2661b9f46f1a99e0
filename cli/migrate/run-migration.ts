import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, type KernelConfig } from '../../kernel/config.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { INSTANCE_LEASES_KEY, currentViewer, leaseEnd, validLeases } from '../../plugins/instances/instance-lease.js';
import { checkConfig } from '../../kernel/module-config.js';
import { createOutboundClient, createOutboundGuard } from '../../kernel/outbound/index.js';
import type { Registry } from '../../kernel/registry.js';
import { MIGRATED_STORES, MigrationError, migrateStore, type MigrationReport, type TargetPolicy } from './storage-migration.js';
import type { CliIo } from '../command.js';
import { builtInRegistry } from '../../app/service.js';
import { ExitCode } from '../exit-codes.js';
import { CliFailure, UsageError } from '../failure.js';
import { formatDuration, formatTable } from '../table.js';


/** `taskloom migrate` once its options are read: the configurations, a check of the source, then the copy. */
export async function runMigration(
  io: CliIo,
  to: 'postgres' | 'mongodb',
  values: Record<string, string | boolean | undefined>,
  target: TargetPolicy,
  pageSize: number | undefined,
): Promise<number> {
  const { source, destination } = configs(io.env, to, values);
  const registry = await builtInRegistry(source.modules);
  checked(to, () => {
    checkConfig(source, registry);
    checkConfig(destination, registry);
  });
  const storeDir = path.join(source.dataDir, 'store');
  if (!existsSync(storeDir)) {
    throw new UsageError(`no JSON store in ${source.dataDir} (looked for ${storeDir}): pass --data-dir or set DATA_DIR`);
  }
  return migrate(io, registry, source, destination, target, pageSize);
}

/** The source (STORAGE=json) and target configurations: the environment, overridden by the options. */
function configs(env: NodeJS.ProcessEnv, to: 'postgres' | 'mongodb', values: Record<string, string | boolean | undefined>) {
  const overrides = (storage: string): NodeJS.ProcessEnv => ({
    ...env,
    STORAGE: storage,
    ...(values['data-dir'] !== undefined ? { DATA_DIR: String(values['data-dir']) } : {}),
    ...(values['database-url'] !== undefined ? { DATABASE_URL: String(values['database-url']) } : {}),
    ...(values['mongodb-url'] !== undefined ? { MONGODB_URL: String(values['mongodb-url']) } : {}),
  });
  return checked(to, () => ({ source: loadConfig(overrides('json')), destination: loadConfig(overrides(to)) }));
}

/** `read()`, with a bad configuration told as a usage error naming the option that sets it. */
function checked<T>(to: 'postgres' | 'mongodb', read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const option = to === 'postgres' ? '--database-url' : '--mongodb-url';
    throw new UsageError(`${error.message} (pass ${option} or set it in the environment)`);
  }
}

async function migrate(
  io: CliIo, registry: Registry, source: KernelConfig, destination: KernelConfig, target: TargetPolicy, pageSize?: number,
): Promise<number> {
  const stop = new AbortController();
  const guard = createOutboundGuard({ allowPrivateNetworks: source.allowPrivateNetworks });
  const outbound = { guard, client: createOutboundClient(guard) };
  const logger = stderrLogger(io);
  const where = describeTarget(destination);
  const onSignal = () => stop.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  let from: StorageProvider | undefined;
  let to: StorageProvider | undefined;
  try {
    registry.configure({ config: source, logger, outbound, signal: stop.signal });
    from = await registry.create('storage', 'json');
    await refuseWhileServing(from, source.dataDir);
    io.stderr.write(`connecting to ${where}\n`);
    registry.configure({ config: destination, logger, outbound, signal: stop.signal });
    to = await registry.create('storage', destination.storage);
    const report = await migrateStore({
      from, to, target, pageSize, signal: stop.signal, sourceId: `json:${source.dataDir}`,
      onProgress: ({ store, done, total }) => io.stderr.write(`${store}: ${done}/${total}\n`),
    });
    io.stdout.write(summary(report, source.dataDir, where));
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CliFailure) throw error;
    const message = stop.signal.aborted
      ? 'interrupted: nothing is lost; run the same command again to resume'
      : error instanceof Error ? error.message : String(error);
    io.stderr.write(`taskloom migrate: ${error instanceof MigrationError || stop.signal.aborted ? '' : 'the migration stopped: '}${message}\n`);
    return ExitCode.failed;
  } finally {
    process.off('SIGINT', onSignal);
    await Promise.allSettled([from?.close(), to?.close(), outbound.client.close()]);
  }
}

/** The JSON store is one process's: copying it while a service writes to it would miss its last writes. */
async function refuseWhileServing(store: StorageProvider, dataDir: string): Promise<void> {
  const leases = validLeases(await store.settings.get(INSTANCE_LEASES_KEY));
  const viewer = currentViewer('taskloom-migrate');
  for (const lease of Object.values(leases)) {
    if (lease.host === os.hostname() && leaseEnd(lease, viewer) === undefined) {
      throw new CliFailure(`a taskloom service (pid ${lease.pid}) is running on ${dataDir}: stop it, then migrate`, ExitCode.failed);
    }
  }
}

/** `postgres (postgres://taskloom:***@db:5432/taskloom)`: never the password. */
function describeTarget(config: KernelConfig): string {
  const url = config.variables[config.storage === 'postgres' ? 'DATABASE_URL' : 'MONGODB_URL'];
  try {
    const parsed = new URL(url ?? '');
    if (parsed.password) parsed.password = '***';
    parsed.search = '';
    return `${config.storage} (${parsed.href})`;
  } catch {
    return config.storage;
  }
}

function summary(report: MigrationReport, dataDir: string, where: string): string {
  const rows = MIGRATED_STORES.map((store) => [store, String(report.counts[store].source), String(report.counts[store].target)]);
  const headline = report.outcome === 'already-done'
    ? `Nothing copied: the JSON store in ${dataDir} was already migrated to ${where} (finished ${report.finishedAt}). ` +
      'Pass --merge to copy it again (records with the same id are replaced) or --force to start over.'
    : `Migrated the JSON store in ${dataDir} to ${where} in ${formatDuration(report.durationMs)}; counts verified.`;
  const notes = [
    report.outcome === 'resumed' ? 'Resumed an interrupted migration from this data directory (records are written by id: nothing doubled).' : '',
    report.merged ? 'The target held other data, which was kept.' : '',
  ].filter(Boolean);
  return `${headline}\n` +
    formatTable(['store', 'source', 'target'], rows) +
    [...notes, `Captures stay in ${path.join(dataDir, 'captures')}: start the service on the database with DATA_DIR=${dataDir}.`].join('\n') + '\n';
}

/** Providers' warnings and errors as plain lines on stderr; the rest is noise for a one-off command. */
function stderrLogger(io: CliIo): Logger {
  const write = (level: string) => (obj: unknown, msg?: string) => {
    const detail = typeof obj === 'string' ? obj : (obj as { err?: Error } | undefined)?.err?.message;
    io.stderr.write(`${level}: ${[msg, detail].filter(Boolean).join(': ')}\n`);
  };
  const quiet = () => undefined;
  const logger: Logger = { fatal: write('error'), error: write('error'), warn: write('warning'), info: quiet, debug: quiet, trace: quiet, child: () => logger };
  return logger;
}
