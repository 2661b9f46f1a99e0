import crypto from 'node:crypto';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import type { LiveRun } from './live-run.js';

/** What the record and the event stream show of a paused run (never the link's token). */
export type AwaitingHuman = NonNullable<ExecutionRecord['awaitingHuman']>;

/** Why a run waits for a person. */
export type PauseReason = AwaitingHuman['reason'];

export interface PauseRequest {
  message: string;
  reason: PauseReason;
  timeoutMs: number;
}

/** The event `awaiting_human` (SSE, and the webhook the lead wires): the state and, when just made, the handoff link. */
export interface AwaitingHumanEvent extends AwaitingHuman {
  executionId: string;
  taskId: string;
  /** The handoff page's path on this service, with its single-use token; absent when replayed to a later client. */
  handoffPath?: string;
}

/** The run ended because no one resumed it in time (outcome stopped). */
export class PauseExpiredError extends Error {
  constructor(readonly timeoutMs: number, message: string) {
    super(`No one resumed the run within ${Math.round(timeoutMs / 1000)} s (it waited for a person: ${message})`);
    this.name = 'PauseExpiredError';
  }
}

/** The handoff page's path (the studio plugin serves it, beside the live view); a new link carries its token as `?token=`. */
export const HANDOFF_PATH = '/api/studio/handoff';

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest();
const matches = (hash: Buffer | undefined, value: string) => hash !== undefined && crypto.timingSafeEqual(hash, sha256(value));
const newSecret = () => crypto.randomBytes(32).toString('base64url');

interface Paused {
  run: LiveRun;
  state: AwaitingHuman;
  expiresAtMs: number;
  /** The link's token, hashed; undefined once it was used. */
  tokenHash: Buffer | undefined;
  /** The session the link was exchanged for (the handoff page's cookie), hashed. */
  sessionHash: Buffer | undefined;
  resume: () => void;
  /** Settles when the pause ends, however it ends (a handoff page's live view closes then). */
  over: Promise<void>;
}

/**
 * The runs of this process waiting for a person (`pause_for_human`, or a wall / second-factor prompt with the task's
 * `antiBot.onWall` / `onSecondFactor: "pause"`). Each has one handoff link at a time: a random token (only its
 * hash is kept) that works once, exchanged for a session of the handoff page valid for that run until it is resumed
 * or the pause expires. `publish` is where the `awaiting_human` event leaves (SSE here; the webhook is wired there).
 */
export function createHumanPauses(deps: { store: ExecutionStore; logger: Logger; publish?: (event: AwaitingHumanEvent) => void }) {
  const paused = new Map<string, Paused>();

  const setRecord = (executionId: string, state: AwaitingHuman | undefined) =>
    deps.store.update(executionId, (current: ExecutionRecord) => {
      if (current.status !== 'running') return undefined;
      const { awaitingHuman: _gone, ...rest } = current;
      if (state) return { ...rest, outcome: 'awaiting_human', awaitingHuman: state };
      const { outcome: _outcome, ...running } = rest;
      return running;
    }).catch((error: unknown) => deps.logger.warn({ err: error, executionId }, 'storing the pause of a run failed'));

  /** A new single-use token for the paused run (the previous one stops working); its path, or undefined. */
  function newLink(executionId: string): string | undefined {
    const entry = paused.get(executionId);
    if (!entry) return undefined;
    const token = newSecret();
    entry.tokenHash = sha256(token);
    // In the query, under a name the request log redacts (kernel/http/query-redaction.ts).
    return `${HANDOFF_PATH}/${encodeURIComponent(executionId)}?token=${token}`;
  }

  return {
    /**
     * Holds the run until a person resumes it (resolves) or `timeoutMs` passes (rejects PauseExpiredError); the
     * signal (cancel, shutdown) rejects with its reason. The record shows outcome `awaiting_human` meanwhile.
     */
    async wait(run: LiveRun, request: PauseRequest, signal: AbortSignal): Promise<void> {
      if (signal.aborted) throw signal.reason;
      const expiresAtMs = Date.now() + request.timeoutMs;
      const state: AwaitingHuman = { message: request.message, reason: request.reason, expiresAt: new Date(expiresAtMs).toISOString() };
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      let ended!: () => void;
      const over = new Promise<void>((resolve) => { ended = resolve; });
      const done = new Promise<void>((resolve, reject) => {
        paused.set(run.executionId, { run, state, expiresAtMs, tokenHash: undefined, sessionHash: undefined, resume: resolve, over });
        timer = setTimeout(() => reject(new PauseExpiredError(request.timeoutMs, request.message)), request.timeoutMs);
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      });
      const handoffPath = newLink(run.executionId)!;
      await setRecord(run.executionId, state);
      run.awaiting = state;
      run.log('warn', `waiting for a person until ${state.expiresAt}: ${request.message} (the handoff link is on the event stream)`);
      const event: AwaitingHumanEvent = { executionId: run.executionId, taskId: run.taskId, ...state, handoffPath };
      run.events.emit('awaiting_human', event);
      deps.publish?.(event);
      try {
        await done;
        run.log('info', 'resumed by a person');
      } catch (error) {
        if (error instanceof PauseExpiredError) run.log('warn', error.message);
        throw error;
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort!);
        paused.delete(run.executionId);
        ended();
        run.awaiting = undefined;
        await setRecord(run.executionId, undefined);
      }
    },

    /** Resumes a paused run of this process; false when it is not paused here. */
    resume(executionId: string): boolean {
      const entry = paused.get(executionId);
      if (!entry) return false;
      entry.tokenHash = undefined;
      entry.sessionHash = undefined;
      entry.resume();
      return true;
    },

    newLink,

    /** Uses the link's token once: a session secret for the handoff page, or undefined (unknown, used, expired). */
    open(executionId: string, token: string): { session: string; maxAgeMs: number } | undefined {
      const entry = paused.get(executionId);
      if (!entry || Date.now() >= entry.expiresAtMs || !matches(entry.tokenHash, token)) return undefined;
      entry.tokenHash = undefined;
      const session = newSecret();
      entry.sessionHash = sha256(session);
      return { session, maxAgeMs: entry.expiresAtMs - Date.now() };
    },

    /** The paused run a handoff session may act on, or undefined (no such session, resumed, expired). */
    bySession(executionId: string, session: string): { run: LiveRun; state: AwaitingHuman; over: Promise<void> } | undefined {
      const entry = paused.get(executionId);
      if (!entry || Date.now() >= entry.expiresAtMs || !matches(entry.sessionHash, session)) return undefined;
      return { run: entry.run, state: entry.state, over: entry.over };
    },

    /** The pause of a run of this process, if it waits. */
    stateOf(executionId: string): AwaitingHuman | undefined {
      return paused.get(executionId)?.state;
    },
  };
}

export type HumanPauses = ReturnType<typeof createHumanPauses>;
