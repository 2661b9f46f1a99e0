import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import { createRecovery } from './recovery.js';
import { executionRoutes } from './routes.js';
import { createExecutionService } from './service.js';
import { sweepEveryHour } from './result-sweep.js';
import '../data/decorators.js';
import '../instances/decorators.js';

/**
 * Execution history under `/api/executions`. On registration, executions an earlier process of this instance (or
 * an instance that stopped) left `queued` or `running` become `interrupted`, before any later plugin (runs,
 * schedules) can start new ones; then every 30 s, those of instances that stopped meanwhile (recovery.ts).
 * fastify-plugin only to declare its dependencies: `encapsulate` keeps the routes in their own scope.
 */
async function executions(app: FastifyInstance): Promise<void> {
  const { services } = app;
  const service = createExecutionService(services, app.captures);
  const recovery = createRecovery({
    store: services.storage.executions, instance: app.instance, logger: services.logger.child({ plugin: 'executions' }),
    sharedQueue: services.queue.capabilities.durable,
  });
  await recovery.atStartup();
  let stopSweeping = () => {};
  const orphans = sweepEveryHour(services);
  app.addHook('onReady', async () => {
    stopSweeping = recovery.every();
    orphans.start();
  });
  app.addHook('preClose', async () => {
    stopSweeping();
    orphans.stop();
  });
  await app.register(executionRoutes, { service, captures: app.captures });
}

export const executionsPlugin = definePlugin({
  name: 'executions',
  prefix: '/api/executions',
  plugin: fp(executions, {
    name: 'taskloom-executions',
    fastify: '5.x',
    encapsulate: true,
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler'],
    decorators: { fastify: ['services', 'captures', 'instance'] },
  }),
});
