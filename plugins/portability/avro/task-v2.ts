import type { AvroRecord } from './schema-types.js';
import { actionV1, scheduleV1 } from './task-parts.js';

/**
 * Task, schema version 2. Changes from version 1, each readable from version 1 data:
 * - `variables` is renamed `variablesJson` (alias `variables`), saying that it holds JSON text;
 * - `optionsJson` (default null) keeps the task-level options (extractionScript, viewport, output, ...) as a
 *   JSON object text: they change more often than a schema should;
 * - `versions` (default empty) carries the history, each snapshot as JSON text.
 */
export const taskV2: AvroRecord = {
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
    { name: 'variablesJson', aliases: ['variables'], type: ['null', 'string'], default: null, doc: 'JSON object text' },
    { name: 'schedule', type: ['null', scheduleV1], default: null },
    { name: 'createdAt', type: 'string', doc: 'ISO 8601' },
    { name: 'updatedAt', type: 'string', doc: 'ISO 8601' },
    { name: 'optionsJson', type: ['null', 'string'], default: null, doc: 'JSON object text of the task-level options' },
    {
      name: 'versions',
      default: [],
      doc: 'newest first',
      type: {
        type: 'array',
        items: {
          type: 'record',
          name: 'TaskVersion',
          fields: [
            { name: 'id', type: 'string' },
            { name: 'savedAt', type: 'string', doc: 'ISO 8601' },
            { name: 'snapshotJson', type: 'string', doc: 'JSON text of the task as it was, without versions' },
          ],
        },
      },
    },
  ],
};
