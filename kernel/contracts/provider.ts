import type { Static, TObject } from 'typebox';
import { AI_CONTRACT_ACCEPTS, AI_CONTRACT_VERSION, type AiProvider } from './ai.js';
import { AUTH_CONTRACT_ACCEPTS, AUTH_CONTRACT_VERSION, type AuthProvider } from './auth.js';
import { BLOB_CONTRACT_ACCEPTS, BLOB_CONTRACT_VERSION, type BlobStore } from './blob.js';
import { BROWSER_CONTRACT_ACCEPTS, BROWSER_CONTRACT_VERSION, type BrowserDriver } from './browser.js';
import { CAPTCHA_CONTRACT_ACCEPTS, CAPTCHA_CONTRACT_VERSION, type CaptchaSolver } from './captcha.js';
import type { BrowserPool } from './browser-pool.js';
import type { Logger } from './logger.js';
import type { OutboundServices } from './outbound.js';
import { OUTPUT_CONTRACT_ACCEPTS, OUTPUT_CONTRACT_VERSION, type OutputTarget } from './output.js';
import { QUEUE_CONTRACT_ACCEPTS, QUEUE_CONTRACT_VERSION, type JobQueue } from './queue.js';
import { SCHEDULER_CONTRACT_ACCEPTS, SCHEDULER_CONTRACT_VERSION, type Scheduler } from './scheduler.js';
import { STORAGE_CONTRACT_ACCEPTS, STORAGE_CONTRACT_VERSION, type StorageProvider } from './storage.js';

/** Each capability and the instance type its providers create. */
export interface CapabilityInstances {
  storage: StorageProvider;
  auth: AuthProvider;
  browser: BrowserDriver;
  ai: AiProvider;
  output: OutputTarget;
  scheduler: Scheduler;
  blob: BlobStore;
  queue: JobQueue;
  captcha: CaptchaSolver;
}

export type Capability = keyof CapabilityInstances;

/** What plugins get as `app.services.<capability>`: the provider's instance, or what the capability's layer makes of it. */
export interface CapabilityServices extends Omit<CapabilityInstances, 'browser'> {
  browser: BrowserPool;
}

/**
 * A contract's version, `major.minor`. A minor only adds what a provider may leave out (optional members, new
 * capabilities flags), so a provider built for an older minor of the same major still works; a new major
 * changes what providers must do. Each contract file defines its version once.
 */
export type ContractVersion = `${number}.${number}`;

/** The version of each contract this taskloom speaks. */
export const CONTRACT_VERSIONS = {
  storage: STORAGE_CONTRACT_VERSION,
  auth: AUTH_CONTRACT_VERSION,
  browser: BROWSER_CONTRACT_VERSION,
  ai: AI_CONTRACT_VERSION,
  output: OUTPUT_CONTRACT_VERSION,
  scheduler: SCHEDULER_CONTRACT_VERSION,
  blob: BLOB_CONTRACT_VERSION,
  queue: QUEUE_CONTRACT_VERSION,
  captcha: CAPTCHA_CONTRACT_VERSION,
} as const satisfies Record<Capability, ContractVersion>;

/** The oldest version of each contract a provider may be built for (same major, an older or equal minor). */
export const CONTRACT_ACCEPTS = {
  storage: STORAGE_CONTRACT_ACCEPTS,
  auth: AUTH_CONTRACT_ACCEPTS,
  browser: BROWSER_CONTRACT_ACCEPTS,
  ai: AI_CONTRACT_ACCEPTS,
  output: OUTPUT_CONTRACT_ACCEPTS,
  scheduler: SCHEDULER_CONTRACT_ACCEPTS,
  blob: BLOB_CONTRACT_ACCEPTS,
  queue: QUEUE_CONTRACT_ACCEPTS,
  captcha: CAPTCHA_CONTRACT_ACCEPTS,
} as const satisfies Record<Capability, ContractVersion>;

/**
 * The environment variables a provider (or a plugin) reads, as a TypeBox object: each property is one variable,
 * named `configPrefix` followed by the property name (`Type.Object({ PATH: Type.String() })` with the prefix
 * `SQLITE_` reads SQLITE_PATH). A property is a string, an integer, a number or a boolean (true/false, 1/0,
 * yes/no, on/off), and may carry `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `enum`, `default`,
 * a `description` (what the one-line error expects) and `Type.Refine` checks, whose message follows the
 * variable's name (`must be ...`). A property the schema does not require (Type.Optional) may be unset.
 */
export type ConfigSchema = TObject;

/** The schema of a module that reads no variable (what a definition without `configSchema` stands for). */
export type NoConfig = TObject<{}>;

/** The variables a module with `configSchema` S receives. */
export type ConfigOf<S extends ConfigSchema> = Static<S>;

/** What a module reads of the environment: its schema and the prefix of its variables. */
export interface Configurable<S extends ConfigSchema = NoConfig> {
  configSchema?: S;
  /**
   * Prefix of its variables, e.g. `SQLITE_`: a third-party module names one of its own. The built-in providers
   * have none (they keep their documented names, DATABASE_URL, BROWSER_USER, ...).
   */
  configPrefix?: string;
}

/**
 * Everything a provider may use, built once by the registry (`registry.create`). Providers never read
 * `process.env`: their variables arrive checked, in `config`.
 */
export interface ProviderContext<Settings = {}> {
  /** Its own variables, read and checked against its `configSchema` (empty without one). */
  config: Settings;
  logger: Logger;
  /** DATA_DIR, absolute: where a provider keeps files. */
  dataDir: string;
  /** Every outbound HTTP call goes through `outbound.client`; addresses are checked by `outbound.guard`. */
  outbound: OutboundServices;
  /** Aborted when the service shuts down. */
  signal: AbortSignal;
  /** The service's storage, for every capability created after it (storage itself gets none). */
  storage?: StorageProvider;
  /** The service's queue (QUEUE), for the scheduler, which is created after it (and nothing else gets it). */
  queue?: JobQueue;
}

export interface ProviderDefinition<C extends Capability = Capability, S extends ConfigSchema = NoConfig> extends Configurable<S> {
  capability: C;
  /** Unique within the capability, e.g. `json`, `postgres`, `playwright`: what the configuration names. */
  id: string;
  /** The contract version it was built for: a constant of the contract, e.g. `STORAGE_CONTRACT_VERSION`. */
  contractVersion: ContractVersion;
  create(context: ProviderContext<ConfigOf<S>>): Promise<CapabilityInstances[C]>;
}

export function defineProvider<C extends Capability, S extends ConfigSchema = NoConfig>(
  definition: ProviderDefinition<C, S>,
): ProviderDefinition<C, S> {
  return definition;
}

/**
 * A layer: the shared work done once over whichever provider of a capability is chosen (the browser pool over
 * the engine, secrets sealed over the storage), so providers only implement their product's primitives. A
 * composition root registers it beside the providers; a capability has at most one, and `browser` needs one
 * (its service is a BrowserPool, not the driver).
 */
export interface LayerDefinition<C extends Capability = Capability, S extends ConfigSchema = NoConfig> extends Configurable<S> {
  capability: C;
  /** Names it in messages, e.g. `browser-pool`. */
  id: string;
  /** What plugins get for the chosen provider's `instance`. On failure it closes what it opened (the instance too). */
  wrap(instance: CapabilityInstances[C], context: ProviderContext<ConfigOf<S>>): Promise<CapabilityServices[C]>;
}

export function defineLayer<C extends Capability, S extends ConfigSchema = NoConfig>(definition: LayerDefinition<C, S>): LayerDefinition<C, S> {
  return definition;
}
