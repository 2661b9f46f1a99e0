import { STORAGE_CONTRACT_VERSION } from './storage.js';
import type { KernelConfig } from '../config.js';
import type { AiProvider } from './ai.js';
import type { AuthProvider } from './auth.js';
import type { BrowserDriver } from './browser.js';
import type { Logger } from './logger.js';
import type { OutboundServices } from '../outbound/index.js';
import type { OutputTarget } from './output.js';
import type { Scheduler } from './scheduler.js';
import type { StorageProvider } from './storage.js';

/** Each capability and the instance type its providers create. */
export interface CapabilityInstances {
  storage: StorageProvider;
  auth: AuthProvider;
  browser: BrowserDriver;
  ai: AiProvider;
  output: OutputTarget;
  scheduler: Scheduler;
}

export type Capability = keyof CapabilityInstances;

/** The contract versions this kernel speaks; the registry refuses providers built for others. */
export const CONTRACT_VERSIONS: Record<Capability, number> = {
  storage: STORAGE_CONTRACT_VERSION,
  auth: 1,
  browser: 1,
  ai: 1,
  output: 1,
  scheduler: 1,
};

/** Everything a provider may use. Providers never read `process.env`. */
export interface ProviderContext {
  config: KernelConfig;
  logger: Logger;
  dataDir: string;
  /** Every outbound HTTP call goes through `outbound.client`; addresses are checked by `outbound.guard`. */
  outbound: OutboundServices;
  /** Aborted when the service shuts down. */
  signal: AbortSignal;
  /** Instances created before this one (storage is always created first). */
  storage?: StorageProvider;
}

export interface ProviderDefinition<C extends Capability = Capability> {
  capability: C;
  /** Unique within the capability, e.g. `json`, `postgres`, `playwright`. */
  id: string;
  contractVersion: number;
  create(context: ProviderContext): Promise<CapabilityInstances[C]>;
}

export function defineProvider<C extends Capability>(definition: ProviderDefinition<C>): ProviderDefinition<C> {
  return definition;
}
