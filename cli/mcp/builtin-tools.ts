import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export const LIST_EXECUTIONS = 'list_executions';
export const GET_EXECUTION = 'get_execution';

const STATUSES = ['queued', 'running', 'success', 'error', 'timeout', 'cancelled', 'interrupted'];

/** The tools that read executions; task tool names all start with `run_`, so they never clash with these. */
export const builtinTools: Tool[] = [
  {
    name: LIST_EXECUTIONS,
    title: 'List executions',
    description: 'Lists taskloom executions (task runs), newest first: executionId, taskId, taskName, status, trigger, startedAt, durationMs.',
    inputSchema: {
      type: 'object',
      properties: {
        taskId: { type: 'string', description: 'only this task\'s executions' },
        status: { type: 'string', enum: STATUSES, description: 'only executions with this status' },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 20, description: 'at most this many' },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: GET_EXECUTION,
    title: 'Get an execution',
    description: 'Reads one taskloom execution: its status, result (result.data holds what the task extracted), log lines and timing.',
    inputSchema: {
      type: 'object',
      properties: { executionId: { type: 'string', description: 'the id, e.g. from list_executions or a run\'s answer' } },
      required: ['executionId'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];
