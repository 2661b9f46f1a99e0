// What the runs plugin offers other plugins (as decorators, see decorators.ts): running a task on demand
// (`app.taskRuns`, for the schedules) and the live page a task reaches (`app.pageCapture`, for generate-selector
// and the inspector). Types only.
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { Action } from '../../kernel/contracts/records.js';


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

/** The task as generate-selector receives it: at least `url` and `actions`, plus whatever else a task holds. */
export interface CaptureTask {
  url: string;
  actions: Action[];
  variables?: Record<string, unknown>;
  [option: string]: unknown;
}

/**
 * A live page, kept open until `close`. `evaluate` and `screenshot` (as on `BrowserPage`; rejecting once the
 * page is closed) let the inspector match elements on the same page; a browser layer may leave them out.
 */
export interface CapturedPage extends Partial<Pick<BrowserPage, 'evaluate' | 'screenshot'>> {
  /** The page's current DOM, serialised (`document.documentElement.outerHTML`). */
  html: string;
  /**
   * How many elements of the live page `selector` matches (`document.querySelectorAll`). Resolves 0 for a
   * selector the page refuses as invalid; rejects only when the page is gone.
   */
  matches(selector: string): Promise<number>;
  /** Closes the page and its browser context. Called exactly once, when the generation ends. */
  close(): Promise<void>;
}

export interface PageCapture {
  /**
   * Opens `task.url` in a fresh browser context (proxy, viewport and user agent as a run would use), runs
   * `task.actions[0 .. actionIndex - 1]` (the actions before the one the selector is for; disabled ones skipped)
   * and resolves to the live page. Rejects (any error, its message shown to the user) when the page cannot be
   * opened or an action fails; `signal` aborts it (client gone, service stopping). A catalogue error is the
   * caller's mistake and is answered as it is: INVALID_URL for a task URL or navigate action that is invalid or
   * refused by the outbound rule, or a refused proxy; PROXY_NOT_FOUND.
   */
  capture(task: CaptureTask, actionIndex: number, options?: { signal?: AbortSignal }): Promise<CapturedPage>;
}
