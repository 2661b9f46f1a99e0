import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import '../instances/decorators.js';
import '../runs/decorators.js';
import { liveRunRoute } from './live-run-route.js';
import { createRunLive } from './run-live.js';
import { attachSocketRoutes } from './upgrade.js';

/**
 * The authoring studio: the live view of a run (`/api/executions/{id}/live`, a WebSocket of JPEG frames and JSON
 * messages), streamed with the DevTools screencast of the run's page while someone watches, and nothing otherwise.
 */
async function studio(app: FastifyInstance): Promise<void> {
  const logger = app.services.logger.child({ plugin: 'studio' });
  const runLive = createRunLive();
  const close = attachSocketRoutes(app, [
    liveRunRoute({ runs: app.runs, store: app.services.storage.executions, instanceId: app.instance.id, runLive }),
  ], logger);
  // Before the server stops: the sockets are no HTTP requests it would wait for.
  app.addHook('preClose', async () => {
    runLive.endAll();
    close();
  });
}

export const studioPlugin = definePlugin({
  name: 'studio',
  plugin: fp(studio, {
    name: 'taskloom-studio',
    fastify: '5.x',
    dependencies: ['taskloom-runs'],
    decorators: { fastify: ['services', 'runs', 'instance'] },
  }),
});
