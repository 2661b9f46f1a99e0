import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The service configuration. The only place that reads `process.env`: each provider (and plugin) declares the
 * variables it reads (`configSchema`), checked by module-config.ts out of `variables`.
 */
export interface KernelConfig {
  port: number;
  host: string;
  dataDir: string;
  /** STORAGE: the storage provider's id (default `json`); TASKLOOM_MODULES may add ids. */
  storage: string;
  /** AUTH_PROVIDER: the auth provider's id (default `local`). */
  authProvider: string;
  /** SCHEDULER: the scheduler provider's id (default: follows QUEUE, see `schedulerFor`). */
  scheduler: string;
  /** BLOB_STORE: the blob store's id (default `disk`): where captures are kept. */
  blobStore: string;
  /** QUEUE: the run queue's provider id (default `memory`, in this process). */
  queue: string;
  /** ROLE: `api` serves HTTP and starts no browser, `worker` runs queued runs, `all` (default) both. */
  role: 'api' | 'worker' | 'all';
  allowPrivateNetworks: boolean;
  authDisabled: boolean;
  /** Undefined: generated once and kept by the storage. */
  sessionSecret?: string;
  /** BROWSER_ENGINE: the browser provider's id (default `playwright`). */
  browserEngine: string;
  maxConcurrentRuns: number;
  providerBaseUrls: { A?: string; B?: string; C?: string };
  /**
   * Which AI provider (by id) serves each slot: TASKLOOM_AI_SLOTS, a JSON object such as `{"C":"my-provider"}`,
   * over the defaults A, B `openai-compatible`, C `anthropic`, D `ollama`.
   */
  aiSlots: Record<'A' | 'B' | 'C' | 'D', string>;
  /** LOW_MEMORY: V8 tuned for a small machine (see app/runtime-tuning.ts); applied before the config loads. */
  lowMemory: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Extra modules (npm names or paths) that contribute providers and plugins. */
  modules: string[];
  /** Behind a reverse proxy: trust its X-Forwarded-* headers (for the Secure cookie flag). */
  trustProxy: boolean;
  /**
   * ALLOWED_HOSTS: host names (or `*.example.com`) requests may name in Host, beside those always accepted
   * (plugins/allowed-hosts); `['*']` accepts any.
   */
  allowedHosts: string[];
  /** Every variable as read (trimmed; an empty one is unset): modules get theirs from it through the kernel. */
  variables: Readonly<Record<string, string>>;
}

/** The variable that chooses each capability's provider, as messages name it. */
export const CHOICE_VARIABLES = {
  storage: 'STORAGE', auth: 'AUTH_PROVIDER', browser: 'BROWSER_ENGINE', scheduler: 'SCHEDULER', blob: 'BLOB_STORE',
  queue: 'QUEUE',
} as const;

/** A bad configuration value: the message is one line naming the variable. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** A provider id: what a module registers under; whether one does is checked against the registry. */
/**
 * The scheduler that goes with a queue when SCHEDULER is unset: a shared queue's engine carries the fires too
 * (each fire taken once, handed on after a crash); with any other queue, bree fires in the process.
 */
export function schedulerFor(queue: string): string {
  return queue === 'pg-boss' || queue === 'bullmq' ? queue : 'bree';
}

function providerId(env: Env, name: string, fallback: string): string {
  const value = text(env, name) ?? fallback;
  if (!/^[a-z0-9][a-z0-9._-]{0,63}$/i.test(value)) throw new ConfigError(name, `is "${value}"; expected a provider id such as ${fallback}`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = text(env, name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `is "${value}"; expected one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const value = text(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(name, `is "${env[name]}"; expected true or false`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = text(env, name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(name, `is "${value}"; expected a whole number from ${min} to ${max}`);
  }
  return n;
}

const DEFAULT_AI_SLOTS: KernelConfig['aiSlots'] = { A: 'openai-compatible', B: 'openai-compatible', C: 'anthropic', D: 'ollama' };

/** TASKLOOM_AI_SLOTS over the defaults; whether the named providers exist is checked when the AI plugin starts. */
function aiSlots(env: Env): KernelConfig['aiSlots'] {
  const name = 'TASKLOOM_AI_SLOTS';
  const value = text(env, name);
  if (value === undefined) return { ...DEFAULT_AI_SLOTS };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ConfigError(name, 'is not valid JSON; expected e.g. {"C":"anthropic"}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(name, 'must be a JSON object of slot (A, B, C, D) to AI provider id');
  }
  const slots = { ...DEFAULT_AI_SLOTS };
  for (const [slot, id] of Object.entries(parsed)) {
    if (!Object.hasOwn(slots, slot)) throw new ConfigError(name, `names slot "${slot}"; expected A, B, C or D`);
    if (typeof id !== 'string' || id.trim() === '') throw new ConfigError(name, `gives slot ${slot} no provider id`);
    slots[slot as keyof typeof slots] = id.trim();
  }
  return slots;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, not ${parsed.protocol}`);
  }
  return value;
}

/** ALLOWED_HOSTS: comma-separated host names without scheme or port; `*` alone accepts any. */
function allowedHosts(env: Env): string[] {
  const name = 'ALLOWED_HOSTS';
  const hosts = (text(env, name) ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  for (const host of hosts) {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    if (host === '*' || net.isIPv6(bare) || /^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(host)) continue;
    throw new ConfigError(name, `names "${host}"; expected host names without scheme or port (e.g. taskloom.example.com,*.lan) or *`);
  }
  if (hosts.includes('*') && hosts.length > 1) throw new ConfigError(name, 'mixes * with host names; * alone accepts any');
  return hosts.map((host) => host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, ''));
}

/** LOW_MEMORY, read on its own: the entry point applies it before anything else loads (throws ConfigError). */
export function lowMemoryRequested(env: Env = process.env): boolean {
  return bool(env, 'LOW_MEMORY', false);
}

/** Every set variable, trimmed. */
function variablesOf(env: Env): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const name of Object.keys(env)) {
    const value = text(env, name);
    if (value !== undefined) variables[name] = value;
  }
  return variables;
}

/**
 * The kernel's own variables. Which provider ids exist, and the variables of each provider and plugin, are
 * checked against the registry by module-config.ts (`checkConfig`).
 */
export function loadConfig(env: Env = process.env): KernelConfig {
  const sessionSecret = text(env, 'SESSION_SECRET');
  if (sessionSecret !== undefined && sessionSecret.length < 32) {
    throw new ConfigError('SESSION_SECRET', 'must be at least 32 characters long');
  }
  const web = ['http:', 'https:'];
  const queue = providerId(env, 'QUEUE', 'memory');
  return {
    port: integer(env, 'PORT', 11345, 0, 65535),
    host: text(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './data'),
    storage: providerId(env, 'STORAGE', 'json'),
    authProvider: providerId(env, 'AUTH_PROVIDER', 'local'),
    scheduler: providerId(env, 'SCHEDULER', schedulerFor(queue)),
    blobStore: providerId(env, 'BLOB_STORE', 'disk'),
    queue,
    role: oneOf(env, 'ROLE', ['api', 'worker', 'all'] as const, 'all'),
    allowPrivateNetworks: bool(env, 'ALLOW_PRIVATE_NETWORKS', false),
    authDisabled: bool(env, 'AUTH_DISABLED', false),
    sessionSecret,
    browserEngine: providerId(env, 'BROWSER_ENGINE', 'playwright'),
    maxConcurrentRuns: integer(env, 'MAX_CONCURRENT_RUNS', Math.max(1, os.availableParallelism()), 1, 1024),
    providerBaseUrls: {
      A: url(env, 'PROVIDER_A_BASE_URL', web),
      B: url(env, 'PROVIDER_B_BASE_URL', web),
      C: url(env, 'PROVIDER_C_BASE_URL', web),
    },
    aiSlots: aiSlots(env),
    lowMemory: lowMemoryRequested(env),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    modules: (text(env, 'TASKLOOM_MODULES') ?? '').split(',').map((m) => m.trim()).filter(Boolean),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    allowedHosts: allowedHosts(env),
    variables: variablesOf(env),
  };
}
