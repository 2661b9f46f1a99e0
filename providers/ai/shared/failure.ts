import { STATUS_CODES } from 'node:http';
import type { AiCallFailure, AiFailureKind } from '../../../kernel/contracts/ai.js';
import { TaskloomError } from '../../../kernel/errors.js';

const MAX_TEXT = 300;

/** Only these say nothing about whether another key or slot would answer. */
const NOT_RETRYABLE: ReadonlySet<AiFailureKind> = new Set(['request', 'blocked', 'cancelled']);

const HINTS: Partial<Record<AiFailureKind, string>> = {
  auth: 'check the key in the AI provider settings',
  'rate-limit': 'the provider is rate limiting this key',
  server: 'the provider failed',
  malformed: 'check the base URL points at the provider',
  request: 'check the model name in the AI model settings',
};

/** The one error every AI provider throws (see `AiCallFailure` in the contract). No cause: it may quote the request. */
export class AiCallError extends TaskloomError implements AiCallFailure {
  declare readonly code: 'UPSTREAM_ERROR';
  readonly kind: AiFailureKind;
  readonly status?: number;
  readonly provider: string;

  constructor(provider: string, kind: AiFailureKind, reason: string, status?: number) {
    super('UPSTREAM_ERROR', 502, reason, { retryable: !NOT_RETRYABLE.has(kind) });
    this.name = 'AiCallError';
    this.provider = provider;
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

/** Removes every occurrence of the secret, however the upstream echoed it. */
export function redact(text: string, secret: string | undefined): string {
  return secret === undefined || secret === '' ? text : text.split(secret).join('[redacted]');
}

/** One short line: tags and runs of whitespace gone, cut at MAX_TEXT characters. */
export function snippet(text: string): string {
  const flat = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT)}…` : flat;
}

/** How a status is treated (vercel/ai's APICallError does the same split; 401/403 fail over to the next key). */
export function kindOfStatus(status: number): AiFailureKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 408 || status === 409 || status === 429) return 'rate-limit';
  if (status >= 500) return 'server';
  return 'request';
}

export interface FailureInput {
  provider: string;
  /** Product words for messages, e.g. `the OpenAI-compatible endpoint at api.openai.com`. */
  where: string;
  kind: AiFailureKind;
  status?: number;
  /** The upstream's own words, if any; shortened and redacted here. */
  detail?: string;
  /** Redacted from the message. */
  apiKey?: string;
}

/** Builds the failure with a message that says what happened and what to do, without the key. */
export function aiFailure(input: FailureInput): AiCallError {
  const { provider, where, kind, status, apiKey } = input;
  const detail = input.detail === undefined ? '' : snippet(input.detail);
  const head = status === undefined
    ? `${where}: ${kind}`
    : `${where} answered ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
  const hint = HINTS[kind];
  const reason = head + (detail ? `: ${detail}` : '') + (hint ? `; ${hint}` : '');
  return new AiCallError(provider, kind, redact(reason, apiKey), status);
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  reason?: unknown;
  status?: unknown;
  /** Ollama's ResponseError names it so. */
  status_code?: unknown;
  cause?: unknown;
}

/** Every error in the cause chain, outermost first (SDKs wrap fetch errors, fetch wraps socket errors). */
function causes(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (let e: unknown = error; typeof e === 'object' && e !== null && chain.length < 8; e = (e as ErrorLike).cause) {
    chain.push(e as ErrorLike);
  }
  return chain;
}

export interface CallSignals {
  /** Aborted when `timeoutMs` passed. */
  deadline: AbortSignal;
  /** The caller's own signal. */
  caller?: AbortSignal;
}

/**
 * Turns whatever an SDK call threw into an AiCallError. Our own signals decide timeout and cancellation
 * (each SDK names them differently); then a status; then the outbound rule; anything else is the network.
 */
export function fromThrown(error: unknown, signals: CallSignals, base: Omit<FailureInput, 'kind'>): AiCallError {
  if (error instanceof AiCallError) return error;
  if (signals.caller?.aborted) return aiFailure({ ...base, kind: 'cancelled', detail: 'the request was cancelled' });
  if (signals.deadline.aborted) return aiFailure({ ...base, kind: 'timeout', detail: 'no answer in time' });
  const chain = causes(error);
  const status = chain.map((e) => e.status ?? e.status_code).find((s): s is number => typeof s === 'number' && s >= 400);
  if (status !== undefined) {
    return aiFailure({ ...base, kind: kindOfStatus(status), status, detail: upstreamMessage(chain[0]) });
  }
  const blocked = chain.find((e) => e.name === 'OutboundBlockedError');
  if (blocked) return aiFailure({ ...base, kind: 'blocked', detail: String(blocked.reason ?? blocked.message) });
  if (chain.some((e) => e.name === 'SyntaxError')) {
    return aiFailure({ ...base, kind: 'malformed', detail: 'the answer is not valid JSON' });
  }
  const root = chain.at(-1);
  const code = chain.map((e) => e.code).filter((c): c is string => typeof c === 'string').at(-1);
  const detail = code ?? (typeof root?.message === 'string' ? root.message : 'unreachable');
  return aiFailure({ ...base, kind: 'network', detail: `could not be reached (${detail})` });
}

/** SDK errors carry the product's message (`{ error: { message } }` or `{ error: "..." }`) in different places. */
function upstreamMessage(error: ErrorLike | undefined): string {
  const body = (error as { error?: unknown } | undefined)?.error;
  if (typeof body === 'string') return body;
  const nested = (body as { error?: { message?: unknown }; message?: unknown } | undefined);
  const message = nested?.error?.message ?? nested?.message;
  if (typeof message === 'string') return message;
  return typeof error?.message === 'string' ? error.message : '';
}
