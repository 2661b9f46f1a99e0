import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import type { PageCapture } from '../runs/decorators.js';
import '../headful/decorators.js';
import { inspectorRoutes } from './routes.js';
import { createInspector } from './service.js';

/**
 * `POST /api/inspector/highlight`, encapsulated under `/api/inspector`, over the headful plugin's
 * `browserSessions`; a request with `task` replays it with the runs plugin's page capture when the composition
 * has one (declared in `uses`; read once the service is ready).
 */
async function inspector(app: FastifyInstance): Promise<void> {
  let capture: PageCapture | undefined;
  app.addHook('onReady', async () => {
    capture = app.pageCapture;
  });
  await app.register(inspectorRoutes, { inspector: createInspector({ services: app.services, sessions: app.browserSessions, capture: () => capture }) });
}

export const inspectorPlugin = definePlugin({
  name: 'inspector',
  prefix: '/api/inspector',
  uses: ['pageCapture'],
  plugin: fp(inspector, {
    name: 'taskloom-inspector', fastify: '5.x', encapsulate: true,
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler'],
    decorators: { fastify: ['services', 'browserSessions'] },
  }),
});
