import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import type { Capture } from './decorators.js';

/**
 * The captures with the task of their run (`taskId`, `taskName`), so a gallery can name them. One lookup per
 * run, not per capture; a run deleted since (its captures outlive it until cleared) leaves them without.
 */
export async function withTasks(captures: Capture[], executions: ExecutionStore): Promise<Capture[]> {
  const tasks = new Map<string, { taskId: string; taskName: string }>();
  await Promise.all([...new Set(captures.map((c) => c.runId))].map(async (runId) => {
    const record = await executions.get(runId);
    if (record) tasks.set(runId, { taskId: record.taskId, taskName: record.taskName });
  }));
  return captures.map((capture) => ({ ...capture, ...tasks.get(capture.runId) }));
}
