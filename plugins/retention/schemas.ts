import { Type } from 'typebox';

/** About a hundred years: a longer retention is "forever" (0). */
export const MAX_RETENTION_DAYS = 36_500;

export { ErrorBody } from '../../kernel/http/error-body.js';

const Days = Type.Integer({ minimum: 0, maximum: MAX_RETENTION_DAYS, description: 'days to keep executions; 0 keeps them forever' });

export const RetentionAnswer = Type.Object({
  days: Days,
  source: Type.Union([Type.Literal('setting'), Type.Literal('environment')], {
    description: '`setting`: set through this endpoint; `environment`: RETENTION_DAYS (0 when unset)',
  }),
});

export const RetentionBody = Type.Object({
  days: Type.Union([Days, Type.Null()], { description: 'null forgets the setting: RETENTION_DAYS applies again' }),
}, { additionalProperties: false });

export const RetentionSaved = Type.Object({
  ...RetentionAnswer.properties,
  pruned: Type.Integer({ description: 'executions removed right away under the new policy' }),
});
