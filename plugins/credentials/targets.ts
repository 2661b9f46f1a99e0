import type { OutputTarget } from '../../kernel/contracts/output.js';
import type { ProviderContext } from '../../kernel/contracts/provider.js';
import { Errors } from '../../kernel/errors.js';
import type { KernelServices } from '../../kernel/services.js';

/** Resolves an output provider id to its instance. */
export type TargetLookup = (providerId: string) => Promise<OutputTarget>;

/** Output provider instances, created through the registry on first use, one per provider id. */
export function createTargetLookup(services: KernelServices): TargetLookup {
  const { registry, config, logger, outbound, shutdownSignal, storage } = services;
  const instances = new Map<string, Promise<OutputTarget>>();

  return (providerId) => {
    if (!registry.providerIds('output').includes(providerId)) {
      throw Errors.VALIDATION_ERROR({
        message: `output provider "${providerId}" is not installed: add its module to TASKLOOM_MODULES`,
      });
    }
    let instance = instances.get(providerId);
    if (!instance) {
      const context: ProviderContext = {
        config, logger, dataDir: config.dataDir, outbound, signal: shutdownSignal, storage,
      };
      // The promise is cached so concurrent first uses create one instance; a failed creation is retried later.
      instance = registry.provider('output', providerId).create(context);
      instances.set(providerId, instance);
      instance.catch(() => instances.delete(providerId));
    }
    return instance;
  };
}
