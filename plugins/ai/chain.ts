import type { AiCallFailure, AiSlotName } from '../../kernel/contracts/ai.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { SettingsStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import { planAttempts, readAiSettings, type PlannedAttempt, type SlotBinding } from './plan.js';

/** The caller's verdict on an answer: taken (with what it made of it) or refused, saying why. */
export type Verdict<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface AiQuestion<T> {
  system: string;
  user: string;
  /** Takes an answer or refuses it; a refusal moves on to the next key. Throwing stops the chain. */
  accept(answer: string): Verdict<T> | Promise<Verdict<T>>;
  /** Stops the chain (client gone, service stopping). */
  signal?: AbortSignal;
}

export interface AiAnswer<T> {
  value: T;
  slot: AiSlotName;
  provider: string;
  keyIndex: number;
  model: string;
}

/** How one attempt ended; also the fields of its log line (never the key). */
export interface AttemptOutcome {
  slot: AiSlotName;
  provider: string;
  keyIndex: number;
  model: string;
  outcome: 'accepted' | 'rejected' | 'failed' | 'cancelled';
  ms: number;
  /** Set for `failed`: the provider's verdict. */
  kind?: string;
  status?: number;
  retryable?: boolean;
  /** Why the answer was refused or the call failed; the key removed. */
  reason?: string;
}

/** Every attempt failed or was refused. Callers map it to their own error (AI_FAILED, AI_PROVIDERS_FAILED). */
export class AiChainFailure extends Error {
  readonly attempts: AttemptOutcome[];
  constructor(attempts: AttemptOutcome[]) {
    super(summarise(attempts));
    this.name = 'AiChainFailure';
    this.attempts = attempts;
  }
}

export interface AiChain {
  /** The attempts a request would make now, in order. Throws NO_AI_PROVIDER (400) when no slot has a key. */
  plan(): Promise<PlannedAttempt[]>;
  /**
   * Asks each attempt of `plan` (default: a fresh `plan()`) in turn until `accept` takes an answer. Every
   * failure moves on, retryable or not: a request error (say, a model unknown to that product) condemns that
   * key's attempt, not the others. Throws AiChainFailure when none was taken or `question.signal` aborted.
   */
  ask<T>(question: AiQuestion<T>, plan?: PlannedAttempt[]): Promise<AiAnswer<T>>;
}

export interface AiChainOptions {
  bindings: readonly SlotBinding[];
  settings: Pick<SettingsStore, 'get'>;
  logger: Logger;
  /** Longest one attempt may take; default 60 000 ms. */
  attemptTimeoutMs?: number;
}

const MAX_REASON = 200;
const MAX_SUMMARY = 2000;

const redact = (text: string, key: string | undefined) => (key ? text.split(key).join('[redacted]') : text);
const short = (text: string) => (text.length > MAX_REASON ? `${text.slice(0, MAX_REASON)}…` : text);

function summarise(attempts: AttemptOutcome[]): string {
  if (attempts.length === 0) return 'the request was cancelled before any provider was asked';
  const text = attempts
    .map((a) => `${a.slot} key ${a.keyIndex + 1} (${a.model}): ${a.outcome === 'rejected' ? 'answer refused, ' : ''}${a.reason ?? a.outcome}`)
    .join('; ');
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY)}…` : text;
}

/** What a provider threw, read through the contract's fields; anything else is a bug in the provider. */
function failureOf(error: unknown, apiKey: string | undefined): Partial<AttemptOutcome> {
  const failure = error as Partial<AiCallFailure> | undefined;
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: typeof failure?.kind === 'string' ? failure.kind : 'unexpected',
    ...(typeof failure?.status === 'number' ? { status: failure.status } : {}),
    retryable: failure?.retryable === true,
    reason: short(redact(message, apiKey)),
  };
}

export function createAiChain(options: AiChainOptions): AiChain {
  const { bindings, settings, logger } = options;
  const timeoutMs = options.attemptTimeoutMs ?? 60_000;

  async function plan(): Promise<PlannedAttempt[]> {
    const attempts = planAttempts(bindings, await readAiSettings(settings));
    if (attempts.length === 0) throw Errors.NO_AI_PROVIDER();
    return attempts;
  }

  async function ask<T>(question: AiQuestion<T>, planned?: PlannedAttempt[]): Promise<AiAnswer<T>> {
    const attempts = planned ?? (await plan());
    const outcomes: AttemptOutcome[] = [];
    for (const attempt of attempts) {
      if (question.signal?.aborted) break;
      const { slot, keyIndex, model, apiKey, baseUrl } = attempt;
      const head = { slot, provider: attempt.provider.id, keyIndex, model };
      const started = Date.now();
      const ms = () => Date.now() - started;
      let answer: string;
      try {
        answer = await attempt.provider.complete({
          system: question.system, user: question.user, model, apiKey, baseUrl, timeoutMs, signal: question.signal,
        });
      } catch (error) {
        const outcome: AttemptOutcome = {
          ...head, outcome: question.signal?.aborted ? 'cancelled' : 'failed', ms: ms(), ...failureOf(error, apiKey),
        };
        outcomes.push(outcome);
        logger.info(outcome, 'AI attempt');
        continue;
      }
      // A throwing `accept` is not the provider's fault (the page is gone, say): the caller decides.
      const verdict = await question.accept(answer);
      const outcome: AttemptOutcome = verdict.ok
        ? { ...head, outcome: 'accepted', ms: ms() }
        : { ...head, outcome: 'rejected', ms: ms(), reason: short(redact(verdict.reason, apiKey)) };
      outcomes.push(outcome);
      logger.info(outcome, 'AI attempt');
      if (verdict.ok) return { ...head, value: verdict.value };
    }
    throw new AiChainFailure(outcomes);
  }

  return { plan, ask };
}
