import type { AvroRecord } from './schema-types.js';
import { taskV2 } from './task-v2.js';
import { actionV1 } from './task-parts.js';

/** Action, version 2: adds `target` (drag_and_drop) and `frame` (iframe selectors, `>>`-separated), default null. */
const actionV2: AvroRecord = {
  ...actionV1,
  fields: [
    ...actionV1.fields,
    { name: 'target', type: ['null', 'string'], default: null },
    { name: 'frame', type: ['null', 'string'], default: null },
  ],
};

/** Task, schema version 3 (current): version 2 with its actions as Action version 2. */
export const taskV3: AvroRecord = {
  ...taskV2,
  fields: taskV2.fields.map((field) => (field.name === 'actions' ? { ...field, type: { type: 'array', items: actionV2 } } : field)),
};
