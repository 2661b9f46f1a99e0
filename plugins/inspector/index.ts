import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/registry.js';
import '../headful/decorators.js';
import { inspectorRoutes } from './routes.js';
import { createInspector } from './service.js';

/** `POST /api/inspector/highlight`, encapsulated under `/api/inspector`; needs the headful plugin's `browserSessions`. */
async function inspector(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('browserSessions')) throw new Error('the inspector plugin needs the headful plugin (app.browserSessions)');
  await app.register(inspectorRoutes, { inspector: createInspector({ services: app.services, sessions: app.browserSessions }) });
}

export const inspectorPlugin = definePlugin({ name: 'inspector', prefix: '/api/inspector', plugin: inspector });
