import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type KernelConfig } from '../../kernel/config.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { INSTANCE_LEASES_KEY, currentViewerOn, leaseEnd, validLeases } from '../../plugins/instances/instance-lease.js';
import { checkConfig } from '../../kernel/module-config.js';
import { createOutboundClient, createOutboundGuard } from '../../kernel/outbound/index.js';
import type { Registry } from '../../kernel/registry.js';
import { KEY_FILE } from '../../layers/sealed-storage/key-files.js';
import { rotateSecrets } from '../../layers/sealed-storage/rotate.js';
import { SecretsError } from '../../layers/sealed-storage/secrets-error.js';
import { keysOf } from '../../layers/sealed-storage/settings.js';
import type { CliIo } from '../command.js';
import { builtInRegistry } from '../../app/service.js';
import { ExitCode } from '../exit-codes.js';
import { CliFailure, UsageError } from '../failure.js';


/** `taskloom secrets rotate` once its options are read: the service's configuration, the store, the rotation. */
export async function runRotation(io: CliIo, dataDir: string | undefined): Promise<number> {
  let config: KernelConfig;
  let registry: Registry;
  try {
    config = loadConfig({ ...io.env, ...(dataDir !== undefined ? { DATA_DIR: dataDir } : {}) });
    registry = await builtInRegistry(config.modules);
    checkConfig(config, registry);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  if (config.storage === 'json' && !existsSync(path.join(config.dataDir, 'store'))) {
    throw new UsageError(`no JSON store in ${config.dataDir}: pass --data-dir or set DATA_DIR (and STORAGE for a database)`);
  }
  const guard = createOutboundGuard({ allowPrivateNetworks: config.allowPrivateNetworks });
  const outbound = { guard, client: createOutboundClient(guard) };
  const stop = new AbortController();
  let storage: StorageProvider | undefined;
  try {
    registry.configure({ config, logger: quietLogger(io), outbound, signal: stop.signal });
    storage = await registry.create('storage', config.storage);
    await refuseWhileServing(storage);
    const keys = keysOf(config);
    const report = await rotateSecrets(storage, keys);
    io.stdout.write(`Sealed ${report.resealed} of ${report.total} secret(s) again; every secret is now sealed with key ${report.keyId} (${report.source}).\n`);
    if (report.keyFileReplaced) io.stdout.write(`${path.join(config.dataDir, KEY_FILE)} holds the new key: replace any backup of the old one.\n`);
    else if (existsSync(path.join(config.dataDir, KEY_FILE))) io.stdout.write(`${path.join(config.dataDir, KEY_FILE)} is no longer needed: the store uses SECRETS_KEY.\n`);
    if (!report.keyFileReplaced && keys.previousSecretsKeys.length > 0) io.stdout.write('Remove SECRETS_KEY_PREVIOUS from the configuration of every instance.\n');
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CliFailure) throw error;
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`taskloom secrets rotate: ${error instanceof SecretsError ? '' : 'the rotation stopped: '}${message}\n` +
      (error instanceof SecretsError ? '' : 'Every secret still opens (both keys are kept until the rotation ends): run the same command again.\n'));
    return ExitCode.failed;
  } finally {
    await Promise.allSettled([storage?.close(), outbound.client.close()]);
  }
}

/** A running instance would keep sealing with the old key, and two processes must never share a JSON store. */
async function refuseWhileServing(storage: StorageProvider): Promise<void> {
  const viewer = await currentViewerOn('taskloom-secrets-rotate', storage.clock ? () => storage.clock!() : undefined);
  for (const [id, lease] of Object.entries(validLeases(await storage.settings.get(INSTANCE_LEASES_KEY)))) {
    if (leaseEnd(lease, viewer) === undefined) {
      throw new CliFailure(`instance ${id} (pid ${lease.pid} on ${lease.host}) is running on this store: stop every instance, then rotate`, ExitCode.failed);
    }
  }
}

/** Providers' warnings and errors as plain lines on stderr. */
function quietLogger(io: CliIo): Logger {
  const write = (level: string) => (obj: unknown, msg?: string) => {
    const detail = typeof obj === 'string' ? obj : (obj as { err?: Error } | undefined)?.err?.message;
    io.stderr.write(`${level}: ${[msg, detail].filter(Boolean).join(': ')}\n`);
  };
  const quiet = () => undefined;
  const logger: Logger = { fatal: write('error'), error: write('error'), warn: write('warning'), info: quiet, debug: quiet, trace: quiet, child: () => logger };
  return logger;
}
