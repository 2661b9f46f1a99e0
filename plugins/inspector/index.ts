import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/registry.js';
import '../ai/decorators.js';
import '../headful/decorators.js';
import { inspectorRoutes } from './routes.js';
import { createInspector } from './service.js';

/**
 * `POST /api/inspector/highlight`, encapsulated under `/api/inspector`; needs the headful plugin's
 * `browserSessions`, and for a request with `task` the runs plugin's `pageCapture` (the replay generate-selector
 * uses), looked up per request since that plugin may register after this one.
 */
async function inspector(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('browserSessions')) throw new Error('the inspector plugin needs the headful plugin (app.browserSessions)');
  const capture = () => (app.hasDecorator('pageCapture') ? app.pageCapture : undefined);
  await app.register(inspectorRoutes, { inspector: createInspector({ services: app.services, sessions: app.browserSessions, capture }) });
}

export const inspectorPlugin = definePlugin({ name: 'inspector', prefix: '/api/inspector', plugin: inspector });
