import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/registry.js';
import { executionRoutes } from './routes.js';
import { createExecutionService } from './service.js';
import '../data/decorators.js';

/**
 * Execution history under `/api/executions`. On registration, executions an earlier process left `queued` or
 * `running` become `interrupted`, before any later plugin (runs, schedules) can start new ones.
 * fastify-plugin only to declare its dependencies: `encapsulate` keeps the routes in their own scope.
 */
async function executions(app: FastifyInstance): Promise<void> {
  const service = createExecutionService(app.services, app.captures);
  await service.recover();
  await app.register(executionRoutes, { service });
}

export const executionsPlugin = definePlugin({
  name: 'executions',
  prefix: '/api/executions',
  plugin: fp(executions, {
    name: 'taskloom-executions',
    fastify: '5.x',
    encapsulate: true,
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler', 'taskloom-captures'],
    decorators: { fastify: ['services', 'captures'] },
  }),
});
