import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../kernel/errors.js';
import { definePlugin } from '../../kernel/plugin.js';
import '../instances/decorators.js';
import '../runs/decorators.js';
import { handoffRoutes, handoffSocketRoute } from './handoff.js';
import { liveRunRoute, runToHereLiveRoute } from './live-run-route.js';
import { studioRoutes } from './routes.js';
import { mappingPickRoutes } from './mapping-pick-routes.js';
import { createRunLive } from './run-live.js';
import { serveStudioSocket } from './studio-socket.js';
import { createStudioSessions } from './studio-sessions.js';
import { attachSocketRoutes } from './upgrade.js';

/**
 * The authoring studio: the live view of a run (`/api/executions/{id}/live`, a WebSocket of JPEG frames and JSON
 * messages) or of a run to here (`/api/tasks/run-to-here/{liveId}/live`), streamed with the DevTools screencast of the run's page while someone watches, and nothing otherwise;
 * studio sessions (a page opened by URL, `/api/studio/sessions`) where a person drives the page, picks elements
 * and records actions over the same kind of WebSocket; the handoff page of a run waiting for a person
 * (`/api/studio/handoff/{id}`, handoff.ts: its live view with mouse and keys, and Resume).
 */
async function studio(app: FastifyInstance): Promise<void> {
  const { services } = app;
  const logger = services.logger.child({ plugin: 'studio' });
  const runLive = createRunLive();
  const sessions = createStudioSessions(services, logger);
  const close = attachSocketRoutes(app, [
    liveRunRoute({ runs: app.runs, store: services.storage.executions, instanceId: app.instance.id, runLive }),
    runToHereLiveRoute({ runs: app.runs, runLive }),
    handoffSocketRoute({ app, runs: app.runs, runLive }),
    {
      path: /^\/api\/studio\/sessions\/([A-Za-z0-9_-]{1,128})\/live\/?$/,
      async accept(match) {
        const session = sessions.get(match[1]!);
        if (!session) throw Errors.NOT_FOUND({}, { details: `Studio session ${match[1]} is not open` });
        return (ws) => serveStudioSocket(ws, session, services.outbound.guard);
      },
    },
  ], logger);
  // Before the server stops: the sockets are no HTTP requests it would wait for.
  app.addHook('preClose', async () => {
    runLive.endAll();
    sessions.closeAll();
    close();
  });
  await app.register(studioRoutes, { sessions });
  await app.register(mappingPickRoutes, { sessions });
  await app.register(handoffRoutes, { runs: app.runs });
}

export const studioPlugin = definePlugin({
  name: 'studio',
  prefix: '/api/studio',
  uses: ['browserStates'],
  plugin: fp(studio, {
    name: 'taskloom-studio',
    fastify: '5.x',
    encapsulate: true,
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler', 'taskloom-runs'],
    decorators: { fastify: ['services', 'runs', 'instance'] },
  }),
});
