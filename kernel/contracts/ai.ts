/**
 * The AI capability: one chat-style completion over one wire protocol. Types only.
 *
 * A provider is one adapter per wire protocol (Chat Completions, Messages, Ollama chat), not one per
 * product: the slots of decisions.md ("AI providers") bind to providers by id in the configuration
 * (`KernelConfig.aiSlots`), and the AI plugin's chain walks the slots and their keys. Failover lives in the
 * chain; a provider makes exactly one request per call (its SDK's own retries switched off).
 */

/** The AI contract's version (`major.minor`, see provider.ts), and the oldest a provider may be built for. */
export const AI_CONTRACT_VERSION = '1.0';
export const AI_CONTRACT_ACCEPTS = '1.0';

/** The four provider slots, tried in this order. */
export type AiSlotName = 'A' | 'B' | 'C' | 'D';

/** The model each slot asks when the settings name none (decisions.md, "AI providers"). */
export const DEFAULT_SLOT_MODELS = {
  A: 'gemini-2.5-flash', B: 'gpt-4o-mini', C: 'claude-haiku-4-5', D: 'llama3.2',
} as const satisfies Record<AiSlotName, string>;

export interface CompletionRequest {
  /** Instructions: what to answer and in which form. */
  system: string;
  /** The user's content (a description, a reduced page, ...). */
  user: string;
  /** Model name as the product spells it, e.g. `gpt-4o-mini`. */
  model: string;
  /** The secret key, for hosted products. Never logged and never part of an error message. */
  apiKey?: string;
  /**
   * Base URL of the endpoint. Absent: the product's public endpoint (the SDK's default, never an environment
   * variable). For a self-hosted provider (Ollama) it is the server address, required, and checked by the
   * outbound guard before the call.
   */
  baseUrl?: string;
  /** Longest the whole call (connect, answer, body) may take, in milliseconds. Then: a `timeout` failure. */
  timeoutMs: number;
  /** The caller's cancellation (client gone, service stopping). Then: a `cancelled` failure. */
  signal?: AbortSignal;
  /** Cap on the answer's length in tokens; default 2048. */
  maxTokens?: number;
}

/**
 * Why a call failed, decided once by the provider:
 * - `auth`: 401 or 403 (a bad, revoked or unprivileged key);
 * - `rate-limit`: 429 (or 408/409, answered the same way);
 * - `server`: 5xx;
 * - `timeout`: no full answer within `timeoutMs`;
 * - `network`: the endpoint could not be reached or dropped the connection;
 * - `malformed`: a 2xx answer that is not the protocol's shape, or holds no text;
 * - `request`: another 4xx (unknown model, request too large): this request will not succeed here;
 * - `blocked`: the outbound rule refused the address (ALLOW_PRIVATE_NETWORKS);
 * - `cancelled`: the caller's `signal` aborted.
 */
export type AiFailureKind =
  | 'auth' | 'rate-limit' | 'server' | 'timeout' | 'network' | 'malformed' | 'request' | 'blocked' | 'cancelled';

/**
 * What `complete` throws: a `TaskloomError` (kernel/errors.ts) with code `UPSTREAM_ERROR` (502) carrying
 * these fields. `retryable` is true for `auth`, `rate-limit`, `server`, `timeout`, `network` and `malformed`
 * (another key or slot may well answer), false for `request`, `blocked` and `cancelled`. The message names the
 * product, the status and the upstream's reason, and never holds the key.
 */
export interface AiCallFailure extends Error {
  readonly code: 'UPSTREAM_ERROR';
  readonly retryable: boolean;
  readonly kind: AiFailureKind;
  /** The HTTP status, when the product answered one. */
  readonly status?: number;
  /** The provider id that failed, e.g. `anthropic`. */
  readonly provider: string;
}

/** An AI provider: one chat-style completion over one wire protocol. */
export interface AiProvider {
  /** The provider id it was registered under, e.g. `openai-compatible`. */
  readonly id: string;
  /**
   * Sends one request (no retries) and resolves to the answer's text, trimmed and non-empty.
   * Throws an `AiCallFailure`; nothing else.
   */
  complete(request: CompletionRequest): Promise<string>;
}
