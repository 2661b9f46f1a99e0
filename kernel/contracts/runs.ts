/**
 * Running a task on demand, as the schedules plugin (and later the dashboard) asks for it. The runs plugin
 * provides it as the `app.taskRuns` decorator; plugins that use it declare it by declaration merging.
 * Types only.
 */

/** Who asked for the run; stored as the execution's `trigger`. */
export type RunTrigger = 'schedule' | 'api' | 'dashboard';

export interface TaskRunOptions {
  trigger: RunTrigger;
  /** Overrides of the task's variables for this run only. */
  variables?: Record<string, unknown>;
}

/** How a finished run ended. */
export interface TaskRunOutcome {
  executionId: string;
  /** An execution status (kernel/contracts/records.ts `ExecutionStatus`): `success`, `error`, `timeout`, ... */
  status: string;
  durationMs: number;
}

export interface TaskRuns {
  /**
   * Runs the task now (queued behind `MAX_CONCURRENT_RUNS`), stores its execution record with `options.trigger`
   * and resolves once the run has ended, whatever its status. Rejects with TASK_NOT_FOUND for an unknown task.
   */
  run(taskId: string, options: TaskRunOptions): Promise<TaskRunOutcome>;
  /** True while a run of the task is queued or running in this process. */
  isRunning(taskId: string): boolean;
}
