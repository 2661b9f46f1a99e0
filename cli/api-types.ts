// The shapes of the service's answers the CLI reads (README "API overview", "Executions and captures").

/** An entry of `GET /api/tasks/list`. */
export interface TaskEntry {
  id: string;
  name: string;
  description?: string;
  url: string;
  mode: string;
  updatedAt: string;
  actionCount?: number;
}

/** A task of `GET /api/tasks` (the whole configuration, without versions). */
export interface TaskDetail extends TaskEntry {
  variables?: Record<string, unknown>;
}

/** An entry of `GET /api/executions/list`: the kernel's record type, as the service answers it. */
import type { ExecutionSummary } from '../kernel/contracts/records.js';

export type { ExecutionSummary };

export interface LogLine {
  at: string;
  level: string;
  message: string;
  actionIndex?: number;
}

/** What `POST /api/tasks/{id}/api` answers once the run ended. */
export interface RunAnswer {
  executionId: string;
  taskId: string;
  status: string;
  durationMs: number;
  result: Record<string, unknown>;
}

/** What `POST /api/tasks/{id}/api` answers at once (202) with `Prefer: respond-async`. */
export interface QueuedRun {
  executionId: string;
  taskId: string;
  status: string;
}

/** `GET /api/executions/{id}`: the record with its logs and result (more fields pass through). */
export interface ExecutionDetail extends ExecutionSummary {
  finishedAt?: string;
  result: Record<string, unknown>;
  logs: LogLine[];
}
