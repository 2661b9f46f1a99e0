import type { FastifyRequest } from 'fastify';
import type { StorageProvider } from '../../kernel/contracts/storage.js';

/**
 * Which task a request is about, for a key limited to some tasks; undefined when the route is about none (or many):
 * such a key is refused there. A task's own routes name it (`/api/tasks/:id...`, `/api/schedules/:taskId...`), an
 * execution's routes by the execution's task, and the execution lists by their `taskId` filter (so a limited key
 * lists only its tasks' runs, by asking for them). An execution that does not exist names no task the caller
 * could learn about: the route answers its own 404.
 */
export async function taskOfRequest(request: FastifyRequest, storage: StorageProvider): Promise<string | null | undefined> {
  const url = request.routeOptions.url ?? '';
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  if (url.startsWith('/api/tasks/:id')) return params.id;
  if (url.startsWith('/api/schedules/:taskId')) return params.taskId;
  if (url.startsWith('/api/executions/:id') && params.id) {
    const execution = await storage.executions.get(params.id);
    return execution ? execution.taskId : null;
  }
  if (request.method === 'GET' && EXECUTION_LISTS.has(url)) {
    const taskId = (request.query as Record<string, unknown> | undefined)?.taskId;
    return typeof taskId === 'string' ? taskId : undefined;
  }
  return undefined;
}

const EXECUTION_LISTS = new Set(['/api/executions', '/api/executions/list', '/api/executions/count']);
