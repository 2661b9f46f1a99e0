import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Scope } from '../../kernel/contracts/records.js';
import { Errors } from '../../kernel/errors.js';
import { describeCaller, scopesOf } from '../../layers/access-scopes/scopes.js';
import { taskOfRequest } from './task-scope.js';

/**
 * After the route policy established who calls (its preValidation hook runs first, the kernel mounted it first):
 * the route's declared scope must be held, and a key limited to some tasks may only touch those.
 */
export function accessGuard(app: FastifyInstance) {
  return async (request: FastifyRequest): Promise<void> => {
    const access = request.routeOptions.config.access as Scope | undefined;
    if (!access) return; // a public route
    const { principal } = request;
    if (!scopesOf(principal).includes(access)) {
      throw Errors.FORBIDDEN({
        hint: `this endpoint needs the "${access}" scope, which ${describeCaller(principal)} does not have`,
      });
    }
    const taskIds = principal.kind === 'apiKey' ? principal.key?.taskIds : null;
    if (!taskIds) return;
    const taskId = await taskOfRequest(request, app.services.storage);
    if (taskId === null) return;
    if (taskId === undefined) {
      throw Errors.FORBIDDEN({ hint: `${describeCaller(principal)} is limited to tasks ${taskIds.join(', ')}: this endpoint is about no single task (filter lists with ?taskId=)` });
    }
    if (!taskIds.includes(taskId)) {
      throw Errors.FORBIDDEN({ hint: `${describeCaller(principal)} is limited to tasks ${taskIds.join(', ')}, not ${taskId}` });
    }
  };
}
