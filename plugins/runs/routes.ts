import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Errors } from '../../kernel/errors.js';
import { acceptAnyBody } from './content-types.js';
import { streamEvents } from './event-stream.js';
import { prefersRespondAsync } from './prefer.js';
import { runToHereRoute } from './run-to-here-route.js';
import type { RunService } from './run-service.js';
import {
  Cancelled, ErrorBody, ExecutionParams, RunAnswer, RunBody, RunHeaders, RunQueued, TaskParams,
} from './schemas.js';

const authenticated = { auth: 'authenticated' } as const;
const Resumed = Type.Object({ success: Type.Boolean(), status: Type.Literal('running') });
const HandoffLink = Type.Object({
  handoffPath: Type.String({ description: "the handoff page's path on this service, with a token that works once" }),
  message: Type.String(),
  reason: Type.String({ description: 'action, anti_bot or second_factor' }),
  expiresAt: Type.String({ description: 'ISO 8601: the run ends stopped then unless resumed' }),
});
const { EXECUTION_NOT_FOUND } = Errors;
/** The SSE stream (event-stream.ts writes it); documented, never serialised. */
const EventStream = {
  description: 'Events until the run ends: `log` (a log line; its `id` is the line\'s index), `status` (`{ status }`), then '
    + '`result` (the RunAnswer); a comment line every 15 s keeps the stream open. `Last-Event-ID` resumes after that line',
  content: { 'text/event-stream': { schema: Type.String() } },
};

/**
 * `POST /tasks/{id}/api`, `POST /executions/{id}/cancel`, `GET /executions/{id}/events` (under `/api`).
 * A caller that disconnects while its run goes on does not stop it: the run finishes, is stored and sends its
 * webhook; only the answer is lost (cancel it explicitly to stop it).
 */
export async function runRoutes(scope: FastifyInstance, options: { service: RunService }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { service } = options;
  const { storage } = app.services;
  acceptAnyBody(app);
  await app.register(runToHereRoute, { views: service.toHere });

  app.post('/tasks/:id/api', {
    config: {
      ...authenticated, access: 'run',
      // NOT_FOUND: the browser session named by sessionId is not open.
      errors: [Errors.TASK_NOT_FOUND, Errors.INVALID_WEBHOOK_URL, Errors.NOT_FOUND, Errors.BROWSER_STATE_NOT_FOUND, Errors.SHUTTING_DOWN, Errors.QUEUE_FULL],
    },
    // No body (or one the rule ignores) is `{}` before validation.
    preValidation: async (request) => {
      if (request.body === undefined || request.body === null) request.body = {};
    },
    schema: {
      tags: ['runs'],
      operationId: 'runTask',
      summary: 'Run a task and answer its result once it ends (200 whatever the status); with Prefer: respond-async, '
        + 'answer 202 once it is queued. Fields are read only with Content-Type: application/json; otherwise the task '
        + 'runs with its defaults.',
      params: TaskParams,
      headers: RunHeaders,
      body: RunBody,
      response: { 200: RunAnswer, 202: RunQueued, 400: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody },
    },
  }, async (request, reply) => {
    const { variables, webhookUrl, statelessExecution, sessionId, trace, browserState, saveBrowserState } = request.body;
    const task = await storage.tasks.get(request.params.id);
    if (!task) throw Errors.TASK_NOT_FOUND({ id: request.params.id });
    if (trace === true && !app.services.browser.traces) {
      throw Errors.VALIDATION_ERROR({ message: `body.trace: traces need the Playwright engine (BROWSER_ENGINE=playwright); this service runs ${app.services.config.browserEngine}` });
    }
    if (webhookUrl !== undefined) await service.checkWebhookUrl(webhookUrl);
    // An unknown state is refused now rather than failing the run (a state deleted later fails it, saying so).
    const used = browserState ?? (typeof task.browserState === 'string' ? task.browserState : undefined);
    if (used !== undefined && app.hasDecorator('browserStates')) await app.browserStates.get(used);
    const trigger = request.principal.kind === 'session' ? 'dashboard' : 'api';
    const options = { trigger, variables, webhookUrl, statelessExecution, sessionId, trace, browserState, saveBrowserState } as const;
    if (!prefersRespondAsync(request.headers.prefer)) return service.execute(task, options);
    // The run goes on in the service exactly as when the caller waits (webhook, output push); only the answer differs.
    const { executionId } = await service.start(task, options);
    return reply.code(202)
      .header('location', `${app.prefix}/executions/${encodeURIComponent(executionId)}`)
      .header('preference-applied', 'respond-async')
      .send({ executionId, taskId: task.id, status: 'queued' as const });
  });

  app.post('/executions/:id/cancel', {
    // UPSTREAM_ERROR: the instance running it did not stop it in time.
    config: { ...authenticated, access: 'run', errors: [EXECUTION_NOT_FOUND, Errors.EXECUTION_FINISHED, Errors.UPSTREAM_ERROR] },
    schema: {
      tags: ['executions'],
      operationId: 'cancelExecution',
      summary: 'Cancel a queued or running execution, on whichever instance it is; answers once it has stopped',
      params: ExecutionParams,
      response: { 200: Cancelled, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody },
    },
  }, async (request) => ({ success: true, status: (await service.cancel(request.params.id)).status }));

  app.post('/executions/:id/resume', {
    // UPSTREAM_ERROR: the instance holding the paused run did not answer in time.
    config: { ...authenticated, access: 'run', errors: [EXECUTION_NOT_FOUND, Errors.EXECUTION_NOT_PAUSED, Errors.UPSTREAM_ERROR] },
    schema: {
      tags: ['executions'],
      operationId: 'resumeExecution',
      summary: 'Resume a run waiting for a person (outcome so far awaiting_human) in the same browser context, on whichever instance it waits',
      params: ExecutionParams,
      response: { 200: Resumed, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody },
    },
  }, async (request) => {
    await service.resume(request.params.id);
    return { success: true, status: 'running' as const };
  });

  app.post('/executions/:id/handoff', {
    config: { ...authenticated, access: 'run', errors: [EXECUTION_NOT_FOUND, Errors.EXECUTION_NOT_PAUSED] },
    schema: {
      tags: ['executions'],
      operationId: 'newHandoffLink',
      summary: 'A new single-use handoff link to a run waiting for a person (the one sent before stops working)',
      params: ExecutionParams,
      response: { 200: HandoffLink, 404: ErrorBody, 409: ErrorBody },
    },
  }, async (request) => {
    const handoffPath = service.pauses.newLink(request.params.id);
    if (handoffPath) return { handoffPath, ...service.pauses.stateOf(request.params.id)! };
    const record = await storage.executions.get(request.params.id);
    if (!record) throw EXECUTION_NOT_FOUND({ id: request.params.id });
    throw Errors.EXECUTION_NOT_PAUSED({ id: request.params.id, reason: record.outcome === 'awaiting_human'
      ? `it waits on instance ${record.instanceId ?? '(unknown)'}, which serves its handoff page: ask that instance for a new link` : `it is ${record.status}` });
  });

  app.get('/executions/:id/events', {
    config: { ...authenticated, access: 'read', errors: [EXECUTION_NOT_FOUND] },
    schema: {
      tags: ['executions'],
      operationId: 'streamExecutionEvents',
      summary: 'Server-sent events of an execution: `log` per line, `status` changes, then `result`, then the end',
      params: ExecutionParams,
      response: { 200: EventStream, 404: ErrorBody },
    },
  }, async (request, reply) => {
    await streamEvents(reply, request.params.id, service.streamSources, request.headers['last-event-id']);
  });
}
