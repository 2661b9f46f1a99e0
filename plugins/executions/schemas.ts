import { Type } from 'typebox';
import { Execution, ExecutionSummary } from '../../kernel/contracts/records.js';

// The execution record (kernel/contracts/records.ts) is the one definition.
export { EXECUTION_STATUSES, EXECUTION_TRIGGERS, Execution, ExecutionSummary } from '../../kernel/contracts/records.js';

/** The execution list page size (spec, Limits) and its ceiling. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

export const ExecutionQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'at most this many, newest first' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'skip this many of the newest matches' }),
  status: Type.Optional(Execution.properties.status),
  taskId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const ExecutionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) });

export const ExecutionSummaries = Type.Object({ executions: Type.Array(ExecutionSummary) });

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });
