import { Type } from 'typebox';
import { namedSchema } from '../../kernel/http/named-schema.js';
import { RunResult } from '../../kernel/http/run-result-schema.js';

export const EXECUTION_STATUSES = ['queued', 'running', 'success', 'error', 'timeout', 'cancelled', 'interrupted'] as const;
export const EXECUTION_TRIGGERS = ['api', 'schedule', 'dashboard'] as const;

/** The execution list page size (spec, Limits) and its ceiling. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

const Status = Type.Enum([...EXECUTION_STATUSES]);
const Trigger = Type.Enum([...EXECUTION_TRIGGERS]);

export const ExecutionQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'at most this many, newest first' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'skip this many of the newest matches' }),
  status: Type.Optional(Status),
  taskId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const ExecutionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) });

const LogLine = namedSchema('LogLine', Type.Object({
  at: Type.String(),
  level: Type.Enum(['debug', 'info', 'warn', 'error']),
  message: Type.String(),
  actionIndex: Type.Optional(Type.Integer({ description: 'counts from 0' })),
}, { additionalProperties: true }));


const summaryFields = {
  executionId: Type.String(),
  taskId: Type.String(),
  taskName: Type.String(),
  status: Status,
  trigger: Trigger,
  startedAt: Type.String({ description: 'ISO 8601' }),
  durationMs: Type.Number(),
};

/** A stored execution with its logs and result; fields added later by the runner pass through. */
export const Execution = namedSchema('Execution', Type.Object({
  ...summaryFields,
  finishedAt: Type.Optional(Type.String({ description: 'ISO 8601; absent while queued or running' })),
  result: RunResult,
  logs: Type.Array(LogLine),
}, { additionalProperties: true }));

/** Summary metadata only: serialisation drops everything else (logs, result). */
export const ExecutionSummary = namedSchema('ExecutionSummary', Type.Object(summaryFields, { additionalProperties: false }));
export const ExecutionSummaries = Type.Object({ executions: Type.Array(ExecutionSummary) });

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });
