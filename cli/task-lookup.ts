import type { ApiClient } from './api-client.js';
import type { TaskEntry } from './api-types.js';
import { ExitCode } from './exit-codes.js';
import { CliFailure, UsageError } from './failure.js';

/** The task whose id is `ref`, else the one whose name is exactly `ref`; exit 4 when none, 2 when the name is shared. */
export async function findTask(client: ApiClient, ref: string): Promise<TaskEntry> {
  const { tasks } = await client.json<{ tasks: TaskEntry[] }>('GET', '/api/tasks/list');
  const byId = tasks.find((task) => task.id === ref);
  if (byId) return byId;
  const named = tasks.filter((task) => task.name === ref);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) throw new UsageError(`${named.length} tasks are named "${ref}" (${named.map((t) => t.id).join(', ')}): give the id`);
  throw new CliFailure(`no task has the id or name "${ref}" (see \`taskloom tasks list\`)`, ExitCode.notFound);
}
