import type { ExecutionRecord, ExecutionStatus } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import type { RunAnswer } from './live-run.js';

export const UNFINISHED: readonly ExecutionStatus[] = ['queued', 'running'];

/** The answer a stored record gives (the record's view, as the run answer and webhook show it). */
export const answerOfRecord = (record: ExecutionRecord): RunAnswer => ({
  executionId: record.executionId, taskId: record.taskId, status: record.status, durationMs: record.durationMs, result: record.result,
  ...(record.resultStoredApart ? { resultStoredApart: record.resultStoredApart } : {}),
});

/** Resolves to the record once it has ended, read every `everyMs` (undefined: it was removed). */
export async function recordEnd(store: ExecutionStore, executionId: string, everyMs = 1000): Promise<ExecutionRecord | undefined> {
  for (;;) {
    const record = await store.get(executionId).catch(() => null);
    if (record === undefined || (record && !UNFINISHED.includes(record.status))) return record;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
