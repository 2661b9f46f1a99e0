import crypto from 'node:crypto';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { TaskloomError } from '../../kernel/errors.js';

/**
 * Fencing: a worker writes about a run only while the record still names its claim. The claim turns a `queued`
 * record `running` with a token of this worker's own (`runToken`); each later write of that worker (the final
 * record, the webhook note) applies only while the record holds the token and, for the final one, is still
 * `running`. So once another instance has ended the run (recovery marked it `interrupted` while this one was cut
 * off), nothing this worker does later overwrites that end: the record's first end is the truth.
 */

type Change = (record: ExecutionRecord) => ExecutionRecord | undefined;

/** A claim's token: random, per run and worker (a run given back and taken again gets another). */
export const newRunToken = (): string => crypto.randomBytes(12).toString('base64url');

/**
 * `change` fenced: applied only while the record holds `token` (without one: a run that never started, cancelled
 * while queued or stopped at shutdown, whose record no worker claimed). A `final` change also needs the record
 * unended: `running` under the token, or `queued` without one.
 */
export function fenced(token: string | undefined, change: Change, final: boolean): Change {
  return (record) => {
    if (record.runToken !== token) return undefined;
    if (final && record.status !== (token === undefined ? 'queued' : 'running')) return undefined;
    return change(record);
  };
}

/** How long a claim is retried while storage does not answer, before the run is given up. */
export const CLAIM_PATIENCE_MS = 15_000;
const CLAIM_RETRY_MS = 500;

export type Claim =
  | { claimed: true; record: ExecutionRecord }
  /** Someone else's or already ended (the record as it is), or gone (undefined). */
  | { claimed: false; record: ExecutionRecord | undefined }
  /** Storage did not answer within the patience, or the run was stopped meanwhile. */
  | { claimed: false; unreachable: unknown };

const transient = (error: unknown) => !(error instanceof TaskloomError) || error.retryable;

/**
 * Claims the run for this worker: `queued` becomes `running` with `token`, `instanceId` and `startedAt`. Retried
 * while storage is unreachable (at most CLAIM_PATIENCE_MS, and not once `signal` aborted).
 */
export async function claimRun(
  store: ExecutionStore, executionId: string, claim: { token: string; instanceId: string; startedAt: string },
  signal: AbortSignal, logger: Logger,
): Promise<Claim> {
  const giveUpAt = Date.now() + CLAIM_PATIENCE_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      let mine = false;
      const record = await store.update(executionId, (current) => {
        mine = current.status === 'queued';
        return mine ? { ...current, status: 'running', startedAt: claim.startedAt, instanceId: claim.instanceId, runToken: claim.token } : undefined;
      });
      return mine && record ? { claimed: true, record } : { claimed: false, record };
    } catch (error) {
      if (!transient(error) || signal.aborted || Date.now() + CLAIM_RETRY_MS > giveUpAt) return { claimed: false, unreachable: error };
      if (attempt === 1) logger.warn({ err: error, executionId }, 'storage is unavailable: the run starts once its claim is written');
      await new Promise((resolve) => setTimeout(resolve, CLAIM_RETRY_MS));
    }
  }
}
