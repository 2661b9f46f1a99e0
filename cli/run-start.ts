import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from './api-client.js';
import type { ExecutionSummary, RunAnswer } from './api-types.js';

const POLL_MS = 150;
/** How many of the task's newest executions count as "there before": a queued one may jump ahead when it starts. */
const KNOWN_LIMIT = 200;

export interface StartedRun {
  /** Resolves to the answer once the run ended (the POST waits for it); rejects with its ApiError. */
  answer: Promise<RunAnswer>;
  /** Resolves to the run's execution id as soon as its record exists (before the answer, usually). */
  executionId: Promise<string>;
  /** Stops waiting for the answer; the run goes on in the service. */
  detach(): void;
}

const listOf = async (client: ApiClient, taskId: string) =>
  (await client.json<{ executions: ExecutionSummary[] }>('GET', '/api/executions/list', { query: { taskId, limit: KNOWN_LIMIT } })).executions;

/**
 * Starts a run with `POST /api/tasks/{id}/api`, which answers only once the run has ended. The record exists
 * from the start (status `queued`), so the execution id is learnt early by watching the task's executions for
 * one that was not there before; until the answer comes, a run of the same task started by someone else at the
 * same moment could be taken for ours (only the progress display would show the wrong lines: the answer is ours).
 */
export async function startRun(client: ApiClient, taskId: string, variables: Record<string, unknown> | undefined): Promise<StartedRun> {
  const known = new Set((await listOf(client, taskId)).map((e) => e.executionId));
  const controller = new AbortController();
  const answer = client.json<RunAnswer>('POST', `/api/tasks/${encodeURIComponent(taskId)}/api`, {
    body: variables ? { variables } : {}, signal: controller.signal,
  });
  let settled = false;
  answer.then(() => { settled = true; }, () => { settled = true; });

  async function discover(): Promise<string> {
    while (!settled) {
      const fresh = (await listOf(client, taskId).catch(() => [])).find((e) => !known.has(e.executionId));
      if (fresh) return fresh.executionId;
      await Promise.race([sleep(POLL_MS), answer.catch(() => undefined)]);
    }
    return (await answer).executionId;
  }

  return { answer, executionId: discover(), detach: () => controller.abort() };
}
