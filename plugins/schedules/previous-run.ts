import type { TaskRuns } from '../runs/decorators.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';

export interface PreviousRunDeps {
  executions: ExecutionStore;
  /** This instance's id: its own runs are known to `TaskRuns.isRunning` without asking storage. */
  instanceId: string;
  /** Ids of the instances whose lease holds (plugins/instances). */
  liveInstances: () => Promise<ReadonlySet<string>>;
}

/**
 * Whether a run of the task is still queued or running anywhere: in this process, or in the shared history under
 * another instance that is alive. A record left `running` by an instance that stopped does not count (recovery
 * marks it `interrupted` soon), so a crash never silences a schedule. Several instances thus skip as one would.
 */
export function createPreviousRunCheck(deps: PreviousRunDeps) {
  return async (taskId: string, runs: TaskRuns): Promise<boolean> => {
    if (runs.isRunning(taskId)) return true;
    const [running, queued] = await Promise.all([
      deps.executions.list({ taskId, status: 'running' }),
      deps.executions.list({ taskId, status: 'queued' }),
    ]);
    const owners = [...running, ...queued]
      .map((record) => record.instanceId)
      .filter((owner): owner is string => typeof owner === 'string' && owner !== deps.instanceId);
    if (owners.length === 0) return false;
    const live = await deps.liveInstances();
    return owners.some((owner) => live.has(owner));
  };
}
