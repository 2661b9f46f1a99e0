import type { Logger } from '../../kernel/contracts/logger.js';
import type { ExecutionLogLine, ExecutionRecord } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { TaskloomError } from '../../kernel/errors.js';
import type { RunAnswer } from './live-run.js';

/** A change to a run's record; undefined: it refuses (the record is no longer the writer's, see run-fence.ts). */
type Change = (record: ExecutionRecord) => ExecutionRecord | undefined;

/** What became of a write: stored, refused by its change (nothing written), or kept to write once storage is back. */
export type WriteOutcome = 'written' | 'refused' | 'kept';

/** How much is kept while storage is away, and how often it is tried again. */
export interface FinalRecordLimits {
  /** Runs whose records are kept at most; past it the oldest is dropped (logged). Default 1000. */
  maxRecords: number;
  /** Approximate bytes kept at most (the records' JSON); past it the oldest is dropped. Default 64 MiB. */
  maxBytes: number;
  /** First retry after this; each failed round doubles it up to `maxDelayMs`. Defaults 1 s and 30 s. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const FINAL_RECORD_LIMITS: FinalRecordLimits = { maxRecords: 1000, maxBytes: 64 * 1024 * 1024, firstDelayMs: 1000, maxDelayMs: 30_000 };

interface Kept {
  /** The run's true end, when the final change is among those kept (not only a later webhook note). */
  answer?: RunAnswer;
  logs: ExecutionLogLine[];
  changes: Change[];
  bytes: number;
  keptAtMs: number;
  attempts: number;
}

/** A failure the store may get over (connection lost, time limit), as opposed to a missing record or a bug. */
const isTransient = (error: unknown): boolean => !(error instanceof TaskloomError) || error.retryable;

/**
 * The changes to execution records that storage could not take (an outage), above all a run's final record:
 * kept in memory in order and written when the store answers again, retried with backoff. While kept, the run's
 * true end is known here (`answerOf`), for the event stream and cancel. Bounded (FinalRecordLimits); what is
 * still kept at shutdown gets one more try, and what is lost is logged (the next start marks those runs
 * `interrupted`).
 */
export function createFinalRecords(store: ExecutionStore, logger: Logger, limits: FinalRecordLimits = FINAL_RECORD_LIMITS) {
  const kept = new Map<string, Kept>();
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  let delayMs = limits.firstDelayMs;
  let flushing: Promise<boolean> | undefined;

  function keep(executionId: string, change: Change, error: unknown, answer?: RunAnswer, logs: ExecutionLogLine[] = []): void {
    const size = answer ? Buffer.byteLength(JSON.stringify({ answer, logs })) : 256;
    const entry = kept.get(executionId) ?? { logs: [], changes: [], bytes: 0, keptAtMs: Date.now(), attempts: 1 };
    entry.changes.push(change);
    if (answer) Object.assign(entry, { answer, logs });
    entry.bytes += size;
    bytes += size;
    if (!kept.has(executionId)) {
      kept.set(executionId, entry);
      logger.warn({ err: error, executionId, status: answer?.status, kept: kept.size }, 'storage is unavailable: the execution record is kept in memory and written when it is back');
    }
    while (kept.size > limits.maxRecords || (bytes > limits.maxBytes && kept.size > 1)) {
      const [oldest, entry] = kept.entries().next().value as [string, Kept];
      forget(oldest);
      logger.error({ executionId: oldest, status: entry.answer?.status, limit: limits }, 'dropped a kept execution record (too many kept while storage is unavailable): the next start marks the run interrupted');
    }
    schedule();
  }

  function forget(executionId: string): void {
    const entry = kept.get(executionId);
    if (!entry) return;
    bytes -= entry.bytes;
    kept.delete(executionId);
  }

  function schedule(): void {
    if (timer || kept.size === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void retry();
    }, delayMs);
    timer.unref();
  }

  /** Writes what is kept, oldest first; stops at the first transient failure (the store is still away). */
  async function writeKept(): Promise<boolean> {
    for (const [executionId, entry] of [...kept]) {
      if (kept.get(executionId) !== entry) continue;
      const changes = entry.changes.splice(0);
      let applied = 0;
      let stored: ExecutionRecord | undefined;
      try {
        stored = await store.update(executionId, (record) => {
          applied = 0;
          const next = changes.reduce((current, change) => {
            const changed = change(current);
            if (changed) applied++;
            return changed ?? current;
          }, record);
          return applied > 0 ? next : undefined;
        });
      } catch (error) {
        entry.changes.unshift(...changes);
        entry.attempts++;
        if (isTransient(error)) return false;
        forget(executionId);
        logger.error({ err: error, executionId }, 'a kept execution record cannot be written: dropped');
        continue;
      }
      if (entry.changes.length > 0) continue; // a change arrived during the write: the next round writes it
      forget(executionId);
      if (entry.answer && stored && applied < changes.length) {
        // Another instance ended the run meanwhile (this one was cut off longer than its lease): the record keeps that end.
        logger.error({ executionId, status: entry.answer.status, stored: stored?.status }, 'a kept final record was refused: the run had already ended elsewhere, and that end stays');
        continue;
      }
      logger.info({ executionId, status: entry.answer?.status, attempts: entry.attempts, keptMs: Date.now() - entry.keptAtMs }, 'wrote a kept execution record now that storage answers again');
    }
    return true;
  }

  async function retry(): Promise<void> {
    const round = flushing ?? writeKept().finally(() => { flushing = undefined; });
    flushing = round;
    const done = await round.catch(() => false);
    delayMs = done ? limits.firstDelayMs : Math.min(delayMs * 2, limits.maxDelayMs);
    schedule();
  }

  return {
    /**
     * Applies `change` to the record: directly when nothing of this run is kept and the store takes it, else kept
     * in order with what is already kept. `answer` (and the run's `logs`) mark the final change. Never throws;
     * resolves to what became of it (a failed write that is not kept counts as refused).
     * `progress` changes (status running) are only logged when they fail: the final one supersedes them.
     */
    async write(executionId: string, change: Change, final?: { answer: RunAnswer; logs: ExecutionLogLine[] }, progress = false): Promise<WriteOutcome> {
      const entry = kept.get(executionId);
      if (entry) {
        if (!progress) keep(executionId, change, undefined, final?.answer, final?.logs);
        return 'kept';
      }
      let applied = false;
      try {
        await store.update(executionId, (record) => {
          const next = change(record);
          applied = next !== undefined;
          return next;
        });
        return applied ? 'written' : 'refused';
      } catch (error) {
        if (progress || !isTransient(error)) {
          logger.error({ err: error, executionId }, 'saving the execution record failed');
          return 'refused';
        }
        keep(executionId, change, error, final?.answer, final?.logs);
        return 'kept';
      }
    },

    /** The true end of a run whose final record is still kept here; undefined otherwise. */
    answerOf(executionId: string): { answer: RunAnswer; logs: ExecutionLogLine[] } | undefined {
      const entry = kept.get(executionId);
      return entry?.answer ? { answer: entry.answer, logs: entry.logs } : undefined;
    },

    /** Records kept now. */
    get size(): number {
      return kept.size;
    },

    /**
     * At shutdown: one more try (at most `withinMs`, so a silent database cannot hold the stop), then a log line
     * naming each run whose record is lost.
     */
    async flush(withinMs = 5000): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      if (kept.size === 0) return;
      let late: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => { late = setTimeout(resolve, withinMs); });
      const lastTry = (async () => {
        if (flushing) await flushing.catch(() => false);
        if (kept.size > 0) await writeKept().catch(() => false);
      })();
      await Promise.race([lastTry, deadline]);
      clearTimeout(late);
      for (const [executionId, entry] of kept) {
        logger.error({ executionId, status: entry.answer?.status }, 'storage is still unavailable at shutdown: this execution record is lost (the next start marks the run interrupted)');
      }
      kept.clear();
      bytes = 0;
    },
  };
}

export type FinalRecords = ReturnType<typeof createFinalRecords>;
