import { Type } from 'typebox';
import { namedSchema } from './named-schema.js';

/**
 * What a run produced (decisions.md "Runs and executions"), as the run answer, the completion webhook and the
 * stored execution all show it. Open, since `data` is whatever the task extracted.
 */
export const RunResult = namedSchema('RunResult', Type.Object({
  data: Type.Optional(Type.Unknown()),
  finalUrl: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  captures: Type.Optional(Type.Array(Type.String(), { description: 'capture names' })),
  error: Type.Optional(Type.Object({
    message: Type.String(),
    actionIndex: Type.Optional(Type.Integer()),
  }, { additionalProperties: true })),
}, { additionalProperties: true }));
