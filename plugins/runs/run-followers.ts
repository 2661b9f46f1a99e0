import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import type { FinalRecords } from './final-records.js';
import type { LiveRun, RunAnswer } from './live-run.js';
import { answerOfRecord as answerOf, UNFINISHED } from './record-answer.js';

/** How often the record of a run queued here and taken by another instance is read. */
export const FOLLOW_POLL_MS = 250;

/**
 * With a shared queue, the runs this process queued: whichever instance takes one, its answer comes back here.
 * Taken here, the local run's end answers at once; taken elsewhere, the record is read until it has ended.
 */
export function createFollowers(store: ExecutionStore, finals: FinalRecords, onEnd: (executionId: string) => void) {
  const following = new Map<string, { run: LiveRun; fail: (error: unknown) => void; timer?: NodeJS.Timeout }>();

  return {
    /** Resolves to the run's answer once it ended on any instance; rejects only through `stopAll`. */
    follow(run: LiveRun): Promise<RunAnswer> {
      return new Promise<RunAnswer>((resolve, reject) => {
        const { executionId } = run;
        const end = (settle: () => void) => {
          const entry = following.get(executionId);
          if (!entry) return;
          clearTimeout(entry.timer);
          following.delete(executionId);
          onEnd(executionId);
          settle();
        };
        const entry: { run: LiveRun; fail: (error: unknown) => void; timer?: NodeJS.Timeout } = { run, fail: (error) => end(() => reject(error)) };
        following.set(executionId, entry);
        void run.finished.then((answer) => end(() => resolve(answer)));
        const poll = async () => {
          const kept = finals.answerOf(executionId)?.answer;
          // null: storage did not answer (ask again); undefined: the record is gone (cleared meanwhile).
          const record = kept ? null : await store.get(executionId).catch(() => null);
          if (!following.has(executionId)) return;
          if (kept) return end(() => resolve(kept));
          if (record === undefined) return end(() => reject(Errors.EXECUTION_NOT_FOUND({ id: executionId })));
          if (record && !UNFINISHED.includes(record.status)) return end(() => resolve(answerOf(record)));
          entry.timer = setTimeout(() => void poll(), FOLLOW_POLL_MS);
        };
        entry.timer = setTimeout(() => void poll(), FOLLOW_POLL_MS);
      });
    },

    /** True while a run of the task, queued by this process, has not ended. */
    has: (taskId: string) => [...following.values()].some((entry) => entry.run.taskId === taskId),

    get size() {
      return following.size;
    },

    /** Shutdown: every waiting caller gets `error` (the runs stay queued for the other instances). */
    stopAll(error: unknown): void {
      for (const entry of [...following.values()]) entry.fail(error);
    },
  };
}

export type Followers = ReturnType<typeof createFollowers>;
