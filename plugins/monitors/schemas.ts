import { Type } from 'typebox';

export { ErrorBody } from '../../kernel/http/error-body.js';

/** `POST /api/monitors`: a page, the value to watch, and optionally when to look and whom to tell. */
export const MonitorBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'the page (checked against the outbound rule when it runs)' }),
  selector: Type.String({ minLength: 1, maxLength: 4000, description: 'CSS selector of the element whose text (a form field: its value) is watched' }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'default: "Monitor <host><path>"' })),
  everyMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440, description: 'look every this many minutes' })),
  cron: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'or on this five-field cron (wins over everyMinutes)' })),
  webhookUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'receives execution.changed of this task only (a signed webhook subscription)' })),
}, { additionalProperties: false });

/** What was made: the task as saved, its schedule, and the subscription with its signing secret (shown this once). */
export const MonitorAnswer = Type.Object({
  task: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: true }),
  schedule: Type.Optional(Type.Object({ description: Type.String(), nextRun: Type.Unknown() }, { additionalProperties: true, description: 'as POST /api/schedules/{taskId} answers' })),
  webhook: Type.Optional(Type.Object({ id: Type.String(), secret: Type.String() }, { additionalProperties: true })),
});
