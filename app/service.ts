import type { KernelConfig } from '../kernel/config.js';
import { Registry } from '../kernel/registry.js';
import { createService as createKernelService, type CreateServiceOptions, type Service } from '../kernel/server.js';
import { builtIns } from './built-ins.js';

export type { Service } from '../kernel/server.js';

/** The built-in modules, then the third-party ones named in TASKLOOM_MODULES (npm names or paths). */
export async function builtInRegistry(modules: readonly string[] = []): Promise<Registry> {
  const registry = new Registry();
  registry.addModule(builtIns);
  await registry.load([...modules]);
  return registry;
}

/** The service with the built-in modules and `config.modules`, unless `options.registry` names others. Does not listen. */
export async function createService(config: KernelConfig, options: Partial<CreateServiceOptions> = {}): Promise<Service> {
  return createKernelService(config, { ...options, registry: options.registry ?? await builtInRegistry(config.modules) });
}
