import type { BrowserPool } from './contracts/browser-pool.js';
import type { KernelConfig } from './config.js';
import type { ApiKeyGrant, AuthProvider, PublicUser } from './contracts/auth.js';
import type { BlobStore } from './contracts/blob.js';
import type { Logger } from './contracts/logger.js';
import type { StorageProvider } from './contracts/storage.js';
import type { AiSlotProviders, OutputTargets } from './capabilities.js';
import type { Scheduler } from './contracts/scheduler.js';
import type { JobQueue } from './contracts/queue.js';
import type { OutboundServices } from './outbound/index.js';
import type { Registry } from './registry.js';

/**
 * What the kernel hands every plugin (as `app.services`): the seven capabilities, each built from the provider the
 * configuration chose, through their contracts; and what every plugin shares.
 */
export interface KernelServices {
  config: KernelConfig;
  registry: Registry;
  logger: Logger;
  /** STORAGE, its secrets sealed at rest. */
  storage: StorageProvider;
  /** AUTH_PROVIDER. */
  auth: AuthProvider;
  /** BROWSER_ENGINE's warm browser and per-run contexts; launches Chromium on first use only. */
  browser: BrowserPool;
  /** SCHEDULER: created stopped, with no jobs (the schedules plugin starts it). */
  scheduler: Scheduler;
  /** BLOB_STORE: where captures are kept. */
  blob: BlobStore;
  /** QUEUE: where runs wait for a worker (the runs plugin starts its worker; the kernel stops the queue last). */
  queue: JobQueue;
  /** The provider serving each AI slot (TASKLOOM_AI_SLOTS). */
  ai: AiSlotProviders;
  /** Output targets by provider id, created on first use (a credential names its provider). */
  output: OutputTargets;
  /** The private-network guard and the one HTTP client for outbound calls. */
  outbound: OutboundServices;
  /** Epoch ms when the service started (health `uptime`). */
  startedAtMs: number;
  /** Aborted when shutdown begins; long work stops or marks itself (plugins also get Fastify's preClose). */
  shutdownSignal: AbortSignal;
  /**
   * A 32-byte key for `purpose`, derived from the session secret (SESSION_SECRET, or the one kept in the store), so
   * every instance sharing the storage derives the same: it signs what another instance verifies.
   */
  sharedKey(purpose: string): Buffer;
}

/** Who made a request, as the route policy established it. */
export type Principal =
  | { kind: 'session'; user: PublicUser; token: string }
  /** `key` names a named API key and what it may do; absent for the system key (every scope). */
  | { kind: 'apiKey'; key?: ApiKeyGrant }
  | { kind: 'trusted' }
  | { kind: 'anonymous' };

/** How a route is protected. Every route must declare one. */
export type AuthPolicy = 'public' | 'authenticated' | 'session' | 'apiKey';
