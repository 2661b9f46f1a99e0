import { DEFAULT_SLOT_MODELS } from '../../kernel/contracts/ai.js';
import type { ProxyRecord } from '../../kernel/contracts/records.js';
import type { ProxyBlockStat } from './proxy-quarantine.js';

/**
 * Settings kept by the settings plugin in `storage.settings`, and the proxy rotation it offers other
 * plugins as `app.proxyRotation` (decorators.ts is how other plugins see them). Secrets are read and written in
 * clear (never masked here): only the HTTP answers mask them. At rest the storage layer seals them
 * (layers/sealed-storage/secret-fields.ts lists the keys).
 */

/** `round-robin`: the pool in stored order, one after the other; `random`: any member, uniformly. */
export type RotationMode = 'round-robin' | 'random';

/** A user proxy as stored: the proxy record (records.ts). The built-in `host` entry (no proxy) is never stored. */
export type ProxyEntry = ProxyRecord;

/** Settings key `settings.proxies`. */
export interface StoredProxySettings {
  /** User proxies, in the order they were added. */
  proxies: ProxyEntry[];
  /** `host` (no proxy) or the id of one of `proxies`. */
  defaultProxyId: string;
  /** Whether the default (host or a user proxy) is a member of the rotation pool. */
  includeDefaultInRotation: boolean;
  rotationMode: RotationMode;
}

/** What a browser context needs to use a proxy (ContextOptions.proxy of the browser contract). */
export interface ProxyChoice {
  server: string;
  username?: string;
  password?: string;
}

/** How a run takes its proxy. */
export interface ProxyUse {
  /** Told, in plain words, about each rotation member skipped (the outbound rule refuses it, or it is blocked). */
  log?(message: string): void;
  /** The host the run opens: rotation passes over members blocked for it (proxy-quarantine.ts). */
  site?: string;
}

/**
 * Picks the proxy of a run. Every method reads the current settings, so a change applies to the next run.
 * `null` means the host's own address (no proxy). A proxy's address is checked against the outbound rule
 * when it is picked, not only when saved: one saved while ALLOW_PRIVATE_NETWORKS allowed it is refused once
 * the rule is back (INVALID_URL, 400, naming the proxy and why).
 */
export interface ProxyRotation {
  /**
   * The next member of the rotation pool. The pool is every user proxy except the default, plus the default
   * (a user proxy or the host) when `includeDefaultInRotation`. Round-robin keeps its position in memory
   * (per process). An empty pool gives the default. A refused member is skipped (told to `use.log`) for the
   * next; INVALID_URL when every member is refused.
   */
  pick(use?: ProxyUse): Promise<ProxyChoice | null>;
  /** The default proxy, for a run without rotation; `null` when it is the host. INVALID_URL when refused. */
  defaultProxy(): Promise<ProxyChoice | null>;
  /**
   * The proxy with this id; `host` gives `null`. Throws PROXY_NOT_FOUND (404) for an unknown id, INVALID_URL
   * when refused.
   */
  forId(id: string): Promise<ProxyChoice | null>;
  /** A task's choice: its `proxyId` when set, else `pick()` when `rotateProxies`, else the default. */
  forTask(task: { proxyId?: string; rotateProxies?: boolean }, use?: ProxyUse): Promise<ProxyChoice | null>;
  /**
   * A rotated run through `proxy` (null: the host) at `site` ended; `blocked`: it met a bot wall (outcome
   * anti_bot), and rotation passes over that proxy for that site for the cool-down.
   */
  reportRun(proxy: ProxyChoice | null, site: string, blocked: boolean): Promise<void>;
  /** Runs and walls per site and proxy (this process's), with the blocks still cooling down. */
  blockStats(): ProxyBlockStat[];
  /** How long a proxy stays blocked for a site after a wall there. */
  readonly blockCoolDownMs: number;
}

/** The four AI provider slots (decisions.md, "AI providers"), named as the AI model settings object names them. */
export type AiSlot = 'providerA' | 'providerB' | 'providerC' | 'providerD';

/** One self-hosted provider D endpoint. Not secret. */
export interface ProviderDEndpoint {
  /** Base URL of the server (`http:` or `https:`), checked by the outbound guard when saved. */
  url: string;
  /** Model to ask; absent for a plain-URL entry: use the `providerD` model of the AI model settings. */
  model?: string;
  /** The entry exactly as saved (a plain URL or a JSON-encoded `{ url, model }`); what GET answers. */
  entry: string;
}

/** Settings key `settings.aiProviderKeys`: the keys of each slot in failover order. Absent slot: no keys. */
export interface StoredAiProviderKeys {
  providerA?: string[];
  providerB?: string[];
  providerC?: string[];
  providerD?: ProviderDEndpoint[];
}

/** The default model of each slot (`gemini-2.5-flash`, `gpt-4o-mini`, `claude-haiku-4-5`, `llama3.2`). */
export interface AiModelSettings {
  providerA: string;
  providerB: string;
  providerC: string;
  providerD: string;
}

/** The default model of each slot, as the AI contract defines it, under the names of the AI model settings. */
export const DEFAULT_AI_MODELS: Readonly<AiModelSettings> = {
  providerA: DEFAULT_SLOT_MODELS.A,
  providerB: DEFAULT_SLOT_MODELS.B,
  providerC: DEFAULT_SLOT_MODELS.C,
  providerD: DEFAULT_SLOT_MODELS.D,
};

export type SelectorFinder = 'highlight' | 'ai';

export type Theme = 'dark' | 'light' | 'solarized-light' | 'solarized-dark';

/**
 * Every `storage.settings` key the settings plugin owns, with the value stored under it. A reader in another
 * plugin names the key through this type, e.g.
 * `storage.settings.get<SettingsEntries[K]>(key satisfies K)` with `K = 'settings.aiProviderKeys'`.
 * A key that was never written is unset: its defaults apply.
 */
export interface SettingsEntries {
  'settings.proxies': StoredProxySettings;
  'settings.aiProviderKeys': StoredAiProviderKeys;
  /** Only the slots ever set; the others have their default model. */
  'settings.aiModels': Partial<AiModelSettings>;
  'settings.selectorFinder': SelectorFinder;
  'settings.theme': Theme;
}
