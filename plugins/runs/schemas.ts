import { Type, type Static } from 'typebox';

// The run answer is a view of the execution record (kernel/contracts/records.ts).
export { RunAnswer, RunToHereAnswer } from '../../kernel/contracts/records.js';
import { BrowserStateName, TaskSummary } from '../../kernel/contracts/records.js';

export const TaskParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const ExecutionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) });

/** `POST /api/tasks/{id}/api`; only read when the request says `Content-Type: application/json`. */
export const RunBody = Type.Object({
  variables: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'override the task variables for this run' })),
  webhookUrl: Type.Optional(Type.String({ maxLength: 2048, description: 'receives a POST with the answer after the run' })),
  statelessExecution: Type.Optional(Type.Boolean({ description: 'a clean context: stored cookies are not used or updated' })),
  sessionId: Type.Optional(Type.String({ maxLength: 256, description: 'an open browser session to run in' })),
  trace: Type.Optional(Type.Boolean({ description: 'record a Playwright trace of this run (as the task option does); 400 with the Puppeteer engine' })),
  browserState: Type.Optional({ ...BrowserStateName, description: 'start from this named browser state instead of the task\'s `browserState`; unknown: 404 BROWSER_STATE_NOT_FOUND' }),
  saveBrowserState: Type.Optional({ ...BrowserStateName, description: 'once the run succeeded, save its cookies and local storage under this name (instead of the task\'s `saveBrowserState`)' }),
}, { additionalProperties: false });
export type RunBodyInput = Static<typeof RunBody>;

/** The request header `POST /api/tasks/{id}/api` reads (RFC 7240). */
export const RunHeaders = Type.Object({
  prefer: Type.Optional(Type.String({ description: '`respond-async`: answer 202 as soon as the run is queued' })),
});

/** The 202 answer to `Prefer: respond-async` (`headers` becomes the OpenAPI response headers). */
export const RunQueued = Type.Object({
  executionId: Type.String(),
  taskId: Type.String(),
  status: Type.Literal('queued'),
}, {
  description: 'Queued (Prefer: respond-async): follow GET /api/executions/{id}/events, then read GET /api/executions/{id}',
  headers: {
    location: { type: 'string', description: '/api/executions/{executionId}' },
    'preference-applied': { type: 'string', description: 'respond-async' },
  },
});

/** `POST /api/tasks/run-to-here`: the editor's task (saved or not) and the action to stop after. */
export const RunToHereBody = Type.Object({
  task: Type.Object({
    ...Type.Partial(TaskSummary).properties,
    url: TaskSummary.properties.url,
    actions: TaskSummary.properties.actions,
  }, { additionalProperties: true, description: 'the task as the editor holds it; nothing is saved' }),
  actionIndex: Type.Integer({ minimum: 0, description: 'the last action to run (0-based)' }),
  variables: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'over the task variables, as a run\'s' })),
  liveId: Type.Optional(Type.String({
    pattern: '^[A-Za-z0-9_-]{16,64}$',
    description: 'an id the caller makes up (16 to 64 letters, digits, _ or -): while it runs, its page is streamed at the WebSocket /api/tasks/run-to-here/{liveId}/live',
  })),
}, { additionalProperties: false });

export const Cancelled = Type.Object({ success: Type.Boolean(), status: Type.String() });
export { ErrorBody } from '../../kernel/http/error-body.js';
