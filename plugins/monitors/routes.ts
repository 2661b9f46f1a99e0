import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors, TaskloomError, errorCatalogue } from '../../kernel/errors.js';
import { ErrorBody, MonitorAnswer, MonitorBody } from './schemas.js';
import { monitorSchedule, monitorSubscription, monitorTask } from './template.js';

const tags = ['tasks'];

/** Headers that describe the inner request's own body (or ask for a compressed answer), not the caller. */
const BODY_HEADERS = new Set(['content-length', 'content-type', 'transfer-encoding', 'accept-encoding']);

/**
 * `POST /api/monitors`. The monitor is made through the public API (`POST /api/tasks`, `POST /api/schedules/{id}`,
 * `POST /api/webhooks`)
 * with the caller's own credentials, so it passes the same checks and policies as if the caller made each part;
 * a part refused undoes the parts made before it, and its error is the answer.
 */
export async function monitorRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  const call = async (request: FastifyRequest, method: 'POST' | 'DELETE', url: string, body?: unknown, part?: string) => {
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !BODY_HEADERS.has(name))) as Record<string, string>;
    const res = await app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
    if (res.statusCode < 300 || !part) return res.json();
    throw refused(res.statusCode, res.json() as { error?: string; details?: unknown }, part);
  };

  app.post('/', {
    config: { auth: 'authenticated', access: 'write', errors: [Errors.INVALID_SCHEDULE, Errors.INVALID_WEBHOOK_URL] },
    schema: {
      tags, operationId: 'createMonitor', summary: 'Watch one value on a page: a task that extracts and compares it, optionally scheduled and with a webhook on change',
      body: MonitorBody, response: { 200: MonitorAnswer, 400: ErrorBody },
    },
  }, async (request) => {
    const input = request.body;
    const task = await call(request, 'POST', '/api/tasks', monitorTask(input), 'the task') as { id: string; name: string };
    try {
      const timing = monitorSchedule(input);
      const schedule = timing && await call(request, 'POST', `/api/schedules/${encodeURIComponent(task.id)}`, timing, 'the schedule') as { description: string; nextRun: unknown };
      const webhook = input.webhookUrl
        ? await call(request, 'POST', '/api/webhooks', monitorSubscription(task.id, task.name, input.webhookUrl), 'the webhook subscription') as { id: string; secret: string }
        : undefined;
      return { task, ...(schedule ? { schedule } : {}), ...(webhook ? { webhook } : {}) };
    } catch (error) {
      // The task's schedule goes with it.
      await call(request, 'DELETE', `/api/tasks/${encodeURIComponent(task.id)}`).catch(() => undefined);
      throw error;
    }
  });
}

/** The inner answer's error, from the catalogue, its details prefixed with the part that refused. */
function refused(status: number, body: { error?: string; details?: unknown }, part: string): TaskloomError {
  const details = `${part}: ${typeof body.details === 'string' ? body.details : JSON.stringify(body.details ?? body)}`;
  const known = errorCatalogue().find((definition) => definition.code === body.error);
  return known ? known(undefined, { details }) : new TaskloomError(body.error ?? 'INTERNAL_ERROR', status, details);
}
