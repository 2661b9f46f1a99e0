import type { AvroRecord } from './schema-types.js';

/**
 * Execution, schema version 2. Kept unchanged forever. Changes from version 1, each readable from version 1 data:
 * - `result.data` is renamed `result.dataJson` (alias `data`), saying that it holds JSON text;
 * - `result.extraJson` (default null) keeps the result's other keys, as a JSON object text;
 * - `extraJson` (default null) keeps the execution's fields that have no column of their own (fields a
 *   newer runner adds), as a JSON object text, so an export loses nothing the API returns.
 * Free-form values travel as JSON text: Avro has no "any JSON" type.
 */
export const executionV2: AvroRecord = {
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
              ],
            }],
          },
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
    { name: 'extraJson', type: ['null', 'string'], default: null, doc: 'JSON object text of the other execution fields' },
  ],
};
