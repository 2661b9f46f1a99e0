import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from './api-client.js';
import type { ExecutionDetail, RunAnswer } from './api-types.js';
import { followExecution, type ExecutionEvent } from './event-follow.js';
import { ExitCode } from './exit-codes.js';
import { ApiError, CliFailure } from './failure.js';

const UNFINISHED = new Set(['queued', 'running']);
/** How many times an event stream that broke before the run ended is opened again, and how far apart. */
const REOPENS = 5;
const REOPEN_MS = 1000;

/**
 * The record in the shape of the waiting `POST /api/tasks/{id}/api` answer (and of the webhook), with the run's
 * outcome beside it (README "Outcomes and bot walls"; not part of that answer's JSON).
 */
export type FollowedRun = RunAnswer & { outcome?: string };
const answerOf = (record: ExecutionDetail): FollowedRun => ({
  executionId: record.executionId, taskId: record.taskId, status: record.status, durationMs: record.durationMs, result: record.result,
  ...(record.outcome ? { outcome: record.outcome } : {}),
});

/**
 * Follows a started run to its end: each event of `GET /api/executions/{id}/events` goes to `onEvent` as it
 * happens; once the stream ends, the final record is read (`GET /api/executions/{id}`) and answered. A stream
 * that breaks first is opened again, without showing the lines it replays twice. Rejects with the service's
 * error (an unknown or deleted execution: EXECUTION_NOT_FOUND), or with the reason of `signal` once it aborts.
 */
export async function awaitRun(
  client: ApiClient, executionId: string, onEvent: (event: ExecutionEvent) => void, signal = new AbortController().signal,
): Promise<FollowedRun> {
  const path = `/api/executions/${encodeURIComponent(executionId)}`;
  let shownLines = 0;
  let lastStatus: string | undefined;
  let lastError: unknown;
  for (let attempt = 0; attempt <= REOPENS; attempt++) {
    if (attempt > 0) await sleep(REOPEN_MS, undefined, { signal });
    let lines = 0;
    let streamed: RunAnswer | undefined;
    try {
      await followExecution(client, executionId, (event) => {
        if (event.event === 'log' && ++lines <= shownLines) return; // replayed by a reopened stream
        if (event.event === 'status' && event.data.status === lastStatus) return;
        if (event.event === 'log') shownLines = lines;
        if (event.event === 'status') lastStatus = event.data.status;
        if (event.event === 'result') streamed = event.data as RunAnswer;
        onEvent(event);
      }, signal);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      lastError = error;
      continue;
    }
    signal.throwIfAborted();
    const record = await client.json<ExecutionDetail>('GET', path, { signal });
    // A large result is stored apart from the record (README "Large results"): read it whole.
    if (record.resultStoredApart) record.result = await client.json<ExecutionDetail['result']>('GET', `${path}/result`, { signal });
    if (!UNFINISHED.has(record.status)) return answerOf(record);
    // The stream's answer when the service could not store the final record.
    if (streamed) return streamed;
  }
  throw lastError ?? new CliFailure(`the events of execution ${executionId} kept ending before the run did; it goes on in the service`, ExitCode.failed);
}
