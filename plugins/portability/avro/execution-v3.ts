import type { AvroRecord } from './schema-types.js';

/**
 * Execution, schema version 3 (current). Kept unchanged once released. Changes from version 2, each readable
 * from version 1 and 2 data (every new field has a default):
 * - `attempt` (null: the first try), which try of the task's `retries` this run is;
 * - `variablesJson`, the variables the run was given, as JSON object text (secret-looking names masked `****`,
 *   as every answer shows them);
 * - `result.trace`, the run's Playwright trace capture;
 * - `result.error.screenshot`, the capture taken when it failed, and `result.error.extraJson` for the error's other
 *   keys (version 2 kept only `message` and `actionIndex` of an error).
 * - `outcome`, how the run ended beside its status (success, anti_bot, crashed, stopped, ...; null in older records);
 * Fields a newer runner adds still travel in `extraJson`.
 */
export const executionV3: AvroRecord = {
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
          {
            name: 'dataJson', aliases: ['data'], type: ['null', 'string'], default: null,
            doc: 'JSON text of what the extraction returned',
          },
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
                { name: 'screenshot', type: ['null', 'string'], default: null, doc: 'the capture taken when the run failed' },
                { name: 'extraJson', type: ['null', 'string'], default: null, doc: 'JSON object text of the error\'s other keys' },
              ],
            }],
          },
          { name: 'trace', type: ['null', 'string'], default: null, doc: 'the Playwright trace capture, when one was asked' },
          { name: 'extraJson', type: ['null', 'string'], default: null, doc: 'JSON object text of the other result keys' },
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
    { name: 'attempt', type: ['null', 'int'], default: null, doc: 'which try this is (2 and up) once the task\'s retries ran it again; null: the first' },
    {
      name: 'variablesJson', type: ['null', 'string'], default: null,
      doc: 'JSON object text of the variables the run was given (over the task\'s); secret-looking names hold ****',
    },
    { name: 'outcome', type: ['null', 'string'], default: null, doc: 'how the run ended beside its status: success | error | timeout | cancelled | interrupted | stopped | crashed | anti_bot | ...' },
    { name: 'extraJson', type: ['null', 'string'], default: null, doc: 'JSON object text of the other execution fields' },
  ],
};
