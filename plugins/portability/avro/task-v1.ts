import type { AvroRecord } from './schema-types.js';
import { actionV1, scheduleV1 } from './task-parts.js';

/**
 * Task, schema version 1: the fields every task has. Kept unchanged forever. `variables` is free-form, so it
 * travels as JSON text (Avro has no "any JSON" type).
 */
export const taskV1: AvroRecord = {
  type: 'record',
  name: 'Task',
  namespace: 'taskloom',
  doc: 'A task as stored (kernel/contracts/records.ts TaskRecord)',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'name', type: 'string' },
    { name: 'description', type: ['null', 'string'], default: null },
    { name: 'url', type: 'string' },
    { name: 'mode', type: 'string', doc: 'agent | scrape | headful' },
    { name: 'actions', type: { type: 'array', items: actionV1 } },
    { name: 'variables', type: ['null', 'string'], default: null, doc: 'JSON object text' },
    { name: 'schedule', type: ['null', scheduleV1], default: null },
    { name: 'createdAt', type: 'string', doc: 'ISO 8601' },
    { name: 'updatedAt', type: 'string', doc: 'ISO 8601' },
  ],
};
