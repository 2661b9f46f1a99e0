// Creates a provider for a test as taskloom's registry does at start: its variables read out of an environment
// and checked against its configSchema, and a context holding a real outbound guard and client.
import type { Logger } from '../kernel/contracts/logger.js';
import type { CapabilityInstances, Capability, ConfigOf, ConfigSchema, ProviderContext, ProviderDefinition } from '../kernel/contracts/provider.js';
import type { StorageProvider } from '../kernel/contracts/storage.js';
import { readModuleConfig } from '../kernel/module-config.js';
import { createOutboundClient, createOutboundGuard } from '../kernel/outbound/index.js';
import { silentLogger } from './loggers.js';

export interface TestProviderOptions {
  /** DATA_DIR: a fresh temporary folder of the test's. */
  dataDir: string;
  /**
   * Environment variables, named as the operator sets them (with the provider's `configPrefix`). Values are
   * trimmed and empty ones unset, as the kernel does; a bad or missing one throws the one-line ConfigError.
   */
  env?: Record<string, string | undefined>;
  /** The service's storage, for a provider of a capability created after it (auth, say). */
  storage?: StorageProvider;
  logger?: Logger;
  /** ALLOW_PRIVATE_NETWORKS for the outbound guard; default true, since stand-ins listen on 127.0.0.1. */
  allowPrivateNetworks?: boolean;
}

export interface TestProvider<C extends Capability, S extends ConfigSchema> {
  instance: CapabilityInstances[C];
  context: ProviderContext<ConfigOf<S>>;
  /** Aborts the context's signal and closes the outbound client (not the instance: the test closes that). */
  close(): Promise<void>;
}

export async function createTestProvider<C extends Capability, S extends ConfigSchema>(
  definition: ProviderDefinition<C, S>,
  options: TestProviderOptions,
): Promise<TestProvider<C, S>> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value !== undefined && value.trim() !== '') variables[name] = value.trim();
  }
  const config = readModuleConfig(definition, variables, { required: true, when: `for ${definition.capability}/${definition.id}` });
  const guard = createOutboundGuard({ allowPrivateNetworks: options.allowPrivateNetworks ?? true });
  const outbound = { guard, client: createOutboundClient(guard) };
  const controller = new AbortController();
  const context: ProviderContext<ConfigOf<S>> = {
    config,
    logger: options.logger ?? silentLogger,
    dataDir: options.dataDir,
    outbound,
    signal: controller.signal,
    ...(options.storage ? { storage: options.storage } : {}),
  };
  const instance = await definition.create(context);
  return {
    instance,
    context,
    async close() {
      controller.abort();
      await outbound.client.close();
    },
  };
}
