import type { ApiClient } from './api-client.js';
import type { QueuedRun } from './api-types.js';

/**
 * Starts a run with `POST /api/tasks/{id}/api` and `Prefer: respond-async`: the service answers 202 with the
 * run's own execution id as soon as it is queued, and the run goes on there (follow it with `awaitRun`).
 * A service that does not honour the preference answers 200 once the run has ended, with the id all the same.
 */
export async function startRun(client: ApiClient, taskId: string, variables: Record<string, unknown> | undefined): Promise<QueuedRun> {
  const answer = await client.json<QueuedRun>('POST', `/api/tasks/${encodeURIComponent(taskId)}/api`, {
    body: variables ? { variables } : {}, headers: { prefer: 'respond-async' },
  });
  return { executionId: answer.executionId, taskId: answer.taskId, status: answer.status };
}
