import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import type { RunToHereViews } from './run-to-here-views.js';
import { proxyOptionsOf, type RunnableTask } from './task-options.js';
import { runToHere } from './run-to-here.js';
import { ErrorBody, RunToHereAnswer, RunToHereBody } from './schemas.js';

/**
 * `POST /tasks/run-to-here` (under `/api`): the task's actions up to one, in a temporary context; the answer is the
 * page's screenshot, the variables, the log and the last output. Closing the request stops it. With a `liveId`,
 * the studio's live view streams its page at `/api/tasks/run-to-here/{liveId}/live` while it runs.
 */
export async function runToHereRoute(scope: FastifyInstance, options: { views: RunToHereViews }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { services, proxyRotation } = app;
  app.post('/tasks/run-to-here', {
    // PROXY_NOT_FOUND: the task names a proxy the settings do not hold.
    config: { auth: 'authenticated', access: 'run', errors: [Errors.INVALID_URL, Errors.PROXY_NOT_FOUND] },
    schema: {
      tags: ['runs'],
      operationId: 'runToHere',
      summary: 'Run a task\'s actions up to one (actionIndex, 0-based) in a temporary context, nothing stored; answers the '
        + 'page\'s screenshot, the variables, the log and the last output. Closing the request stops it.',
      body: RunToHereBody,
      response: { 200: RunToHereAnswer, 400: ErrorBody, 404: ErrorBody },
    },
  }, async (request, reply) => {
    const { task, actionIndex, variables, liveId } = request.body;
    if (actionIndex >= task.actions.length) {
      throw Errors.VALIDATION_ERROR({ message: `body.actionIndex: the task has ${task.actions.length} actions (0 to ${task.actions.length - 1})` });
    }
    const stop = new AbortController();
    // The caller went away (the dashboard's Stop): the run ends at once.
    reply.raw.on('close', () => { if (!reply.raw.writableFinished) stop.abort(); });
    const live = liveId === undefined ? undefined : options.views.add(liveId);
    let status = 'error';
    try {
      const answer = await runToHere({
        services, chooseProxy: (t) => proxyRotation.forTask(proxyOptionsOf(t)),
      }, { task: task as RunnableTask, actionIndex, variables, signal: stop.signal, view: live?.view });
      status = answer.status;
      return answer;
    } finally {
      live?.end(status);
    }
  });
}
