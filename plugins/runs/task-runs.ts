import type { TaskRuns } from './offered.js';
import type { TaskStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import type { RunService } from './run-service.js';

/** `app.taskRuns` (kernel/contracts/runs.ts), what the scheduler fires: a run by task id, through the same queue. */
export function createTaskRuns(service: RunService, tasks: TaskStore): TaskRuns {
  return {
    async run(taskId, options) {
      const task = await tasks.get(taskId);
      if (!task) throw Errors.TASK_NOT_FOUND({ id: taskId });
      const answer = await service.execute(task, { trigger: options.trigger, variables: options.variables });
      return { executionId: answer.executionId, status: answer.status, durationMs: answer.durationMs };
    },
    isRunning: (taskId) => service.isRunning(taskId),
  };
}
