import { Type } from 'typebox';
import { EXECUTION_OUTCOMES, EXECUTION_STATUSES, Execution, ExecutionSummary, RunResult, type ExecutionOutcome } from '../../kernel/contracts/records.js';

// The execution record (kernel/contracts/records.ts) is the one definition.
export { EXECUTION_STATUSES, EXECUTION_TRIGGERS, Execution, ExecutionSummary } from '../../kernel/contracts/records.js';

/** The execution list page size (spec, Limits) and its ceiling. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

/** The filters of the list, the count and the export (`from`/`to` bound `startedAt`, both inclusive). */
export const ExecutionFilter = Type.Object({
  status: Type.Optional(Execution.properties.status),
  taskId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  trigger: Type.Optional(Execution.properties.trigger),
  outcome: Type.Optional(Type.Unsafe<ExecutionOutcome>(Type.Enum([...EXECUTION_OUTCOMES], { description: 'how runs ended (older runs: by their status)' }))),
  changed: Type.Optional(Type.Boolean({ description: "true: runs that found a change since the task's previous successful run; false: runs compared and unchanged (task option compare)" })),
  from: Type.Optional(Type.String({ format: 'date-time', maxLength: 64, description: 'ISO 8601; runs started at or after it' })),
  to: Type.Optional(Type.String({ format: 'date-time', maxLength: 64, description: 'ISO 8601; runs started at or before it' })),
});

export const ExecutionQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'at most this many, newest first' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'skip this many of the newest matches' }),
  ...ExecutionFilter.properties,
});

const StatusCounts = Type.Object(Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, Type.Integer({ minimum: 0 })])) as Record<(typeof EXECUTION_STATUSES)[number], ReturnType<typeof Type.Integer>>);

export const ExecutionOverview = Type.Object({
  at: Type.String({ description: 'when it was counted (ISO 8601)' }),
  windows: Type.Array(Type.Object({
    hours: Type.Integer({ description: 'runs started in the last this many hours (24 and 168)' }),
    total: Type.Integer({ minimum: 0 }),
    byStatus: StatusCounts,
  })),
  recentFailures: Type.Array(ExecutionSummary, { description: 'the newest runs that ended error, timeout or interrupted (at most 5)' }),
});

export const ExecutionCount = Type.Object({ total: Type.Integer({ minimum: 0, description: 'how many executions match the filters' }) });

export const ExecutionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) });

export const ExecutionSummaries = Type.Object({ executions: Type.Array(ExecutionSummary) });

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });

/** `GET /api/executions/{id}/result`: the whole result, streamed (typed loosely: the body is a stream, not serialised). */
export const ResultFile: Record<string, unknown> = {
  description: 'the whole result as JSON: { data, finalUrl, title, captures, error? }',
  content: { 'application/json': { schema: RunResult } },
};
