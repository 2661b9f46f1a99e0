import type { AvroRecord } from './schema-types.js';

/**
 * Execution, schema version 1 (the first export format). Kept unchanged forever: files written with it must
 * stay readable by every later version. `result.data` is free-form (whatever the task extracted), so it travels
 * as JSON text; so does every other value whose shape the service does not fix.
 */
export const executionV1: AvroRecord = {
  type: 'record',
  name: 'Execution',
  namespace: 'taskloom',
  doc: 'One run of a task (kernel/contracts/records.ts ExecutionRecord)',
  fields: [
    { name: 'executionId', type: 'string' },
    { name: 'taskId', type: 'string' },
    { name: 'taskName', type: 'string' },
    { name: 'status', type: 'string', doc: 'queued | running | success | error | timeout | cancelled | interrupted' },
    { name: 'trigger', type: 'string', doc: 'api | schedule | dashboard' },
    { name: 'startedAt', type: 'string', doc: 'ISO 8601' },
    { name: 'finishedAt', type: ['null', 'string'], default: null, doc: 'ISO 8601; null while queued or running' },
    { name: 'durationMs', type: 'long' },
    {
      name: 'result',
      type: {
        type: 'record',
        name: 'ExecutionResult',
        fields: [
          { name: 'data', type: ['null', 'string'], default: null, doc: 'JSON text of what the extraction returned' },
          { name: 'finalUrl', type: ['null', 'string'], default: null },
          { name: 'title', type: ['null', 'string'], default: null },
          { name: 'captures', type: ['null', { type: 'array', items: 'string' }], default: null, doc: 'capture names' },
          {
            name: 'error',
            default: null,
            type: ['null', {
              type: 'record',
              name: 'ExecutionError',
              fields: [
                { name: 'message', type: 'string' },
                { name: 'actionIndex', type: ['null', 'int'], default: null },
              ],
            }],
          },
        ],
      },
    },
    {
      name: 'logs',
      type: {
        type: 'array',
        items: {
          type: 'record',
          name: 'ExecutionLogLine',
          fields: [
            { name: 'at', type: 'string', doc: 'ISO 8601' },
            { name: 'level', type: 'string', doc: 'debug | info | warn | error' },
            { name: 'message', type: 'string' },
            { name: 'actionIndex', type: ['null', 'int'], default: null },
          ],
        },
      },
    },
  ],
};
