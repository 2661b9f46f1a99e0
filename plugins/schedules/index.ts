import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import '../instances/decorators.js';
import '../runs/decorators.js';
import { eventsOf } from '../../layers/events/event-bus.js';
import { scheduleRoutes } from './routes.js';
import { createSchedulesRuntime } from './runtime.js';

export { createSchedulesRuntime, type SchedulesRuntime } from './runtime.js';

/**
 * Schedules under `/api/schedules`, over the configured scheduler (`services.scheduler`, SCHEDULER). It loads
 * every enabled schedule once all plugins are ready, and stops firing as shutdown begins; fires still in flight
 * record their runs before storage closes. fastify-plugin only to declare dependencies: `encapsulate` keeps the
 * routes in their own scope.
 */
async function schedules(app: FastifyInstance): Promise<void> {
  const { services } = app;
  const logger = services.logger.child({ plugin: 'schedules' });
  const runtime = createSchedulesRuntime({
    storage: services.storage,
    scheduler: services.scheduler,
    logger,
    taskRuns: app.taskRuns,
    shutdownSignal: services.shutdownSignal,
    instance: app.instance,
    events: eventsOf(app),
  });
  app.addHook('onReady', async () => {
    await runtime.start();
  });
  app.addHook('preClose', async () => {
    await runtime.stop();
  });
  app.addHook('onClose', async () => {
    await runtime.drain();
  });
  await app.register(scheduleRoutes, { service: runtime.service });
}

export const schedulesPlugin = definePlugin({
  name: 'schedules',
  prefix: '/api/schedules',
  // Skipped fires are published through the webhooks plugin's `app.events` when there is one.
  uses: ['events'],
  plugin: fp(schedules, {
    name: 'taskloom-schedules',
    fastify: '5.x',
    encapsulate: true,
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler'],
    decorators: { fastify: ['services', 'taskRuns', 'instance'] },
  }),
});
