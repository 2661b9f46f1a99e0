// The shapes of the service's answers the CLI reads (README "API overview", "Executions and captures"): the
// service's own records (kernel/contracts/records.ts), imported as types.
import type { ExecutionRecord } from '../kernel/contracts/records.js';

export type {
  /** An entry of `GET /api/tasks/list`. */
  TaskListEntry as TaskEntry,
  /** A task of `GET /api/tasks` (the whole configuration, without versions). */
  TaskSnapshot as TaskDetail,
  /** An entry of `GET /api/executions/list`. */
  ExecutionSummary,
  ExecutionStatus,
  ExecutionLogLine as LogLine,
  /** What `POST /api/tasks/{id}/api` answers once the run ended. */
  RunAnswer,
  /** `GET /api/executions/{id}`: the record with its logs and result (more fields pass through). */
  ExecutionRecord as ExecutionDetail,
} from '../kernel/contracts/records.js';

/** What `POST /api/tasks/{id}/api` answers at once (202) with `Prefer: respond-async`. */
export type QueuedRun = Pick<ExecutionRecord, 'executionId' | 'taskId'> & { status: 'queued' };
