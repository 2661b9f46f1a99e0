import type { ApiClient } from './api-client.js';
import type { TaskEntry } from './api-types.js';
import { ExitCode } from './exit-codes.js';
import { CliFailure, UsageError } from './failure.js';

/** What `ref` names: the task with that id, else the one task with exactly that name; null when none. */
async function lookUp(client: ApiClient, ref: string): Promise<TaskEntry | null> {
  const { tasks } = await client.json<{ tasks: TaskEntry[] }>('GET', '/api/tasks/list');
  const byId = tasks.find((task) => task.id === ref);
  if (byId) return byId;
  const named = tasks.filter((task) => task.name === ref);
  if (named.length > 1) throw new UsageError(`${named.length} tasks are named "${ref}" (${named.map((t) => t.id).join(', ')}): give the id`);
  return named[0] ?? null;
}

/** The task whose id is `ref`, else the one whose name is exactly `ref`; exit 4 when none, 2 when the name is shared. */
export async function findTask(client: ApiClient, ref: string): Promise<TaskEntry> {
  const task = await lookUp(client, ref);
  if (!task) throw new CliFailure(`no task has the id or name "${ref}" (see \`taskloom tasks list\`)`, ExitCode.notFound);
  return task;
}

/**
 * The task id a `--task` filter means: a task's id or exact name, as `findTask`; a ref naming no current task
 * is kept as an id (`known` false), since executions outlive their deleted task.
 */
export async function taskIdFor(client: ApiClient, ref: string): Promise<{ taskId: string; known: boolean }> {
  const task = await lookUp(client, ref);
  return task ? { taskId: task.id, known: true } : { taskId: ref, known: false };
}
