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
  await app.register(runToHereRoute);

  app.post('/tasks/:id/api', {
    config: {
      ...authenticated,
      // NOT_FOUND: the browser session named by sessionId is not open.
      errors: [Errors.TASK_NOT_FOUND, Errors.INVALID_WEBHOOK_URL, Errors.NOT_FOUND, Errors.SHUTTING_DOWN],
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
      response: { 200: RunAnswer, 202: RunQueued, 400: ErrorBody, 404: ErrorBody, 503: ErrorBody },
    },
  }, async (request, reply) => {
    const { variables, webhookUrl, statelessExecution, sessionId, trace } = request.body;
    const task = await storage.tasks.get(request.params.id);
    if (!task) throw Errors.TASK_NOT_FOUND({ id: request.params.id });
    if (trace === true && !app.services.browser.traces) {
      throw Errors.VALIDATION_ERROR({ message: `body.trace: traces need the Playwright engine (BROWSER_ENGINE=playwright); this service runs ${app.services.config.browserEngine}` });
    }
    if (webhookUrl !== undefined) await service.checkWebhookUrl(webhookUrl);
    const trigger = request.principal.kind === 'session' ? 'dashboard' : 'api';
    const options = { trigger, variables, webhookUrl, statelessExecution, sessionId, trace } as const;
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
    config: { ...authenticated, errors: [EXECUTION_NOT_FOUND, Errors.EXECUTION_FINISHED, Errors.UPSTREAM_ERROR] },
    schema: {
      tags: ['executions'],
      operationId: 'cancelExecution',
      summary: 'Cancel a queued or running execution, on whichever instance it is; answers once it has stopped',
      params: ExecutionParams,
      response: { 200: Cancelled, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody },
    },
  }, async (request) => ({ success: true, status: (await service.cancel(request.params.id)).status }));

  app.get('/executions/:id/events', {
    config: { ...authenticated, errors: [EXECUTION_NOT_FOUND] },
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
