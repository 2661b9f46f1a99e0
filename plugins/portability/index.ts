import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import { portabilityRoutes } from './routes.js';
import { createPortabilityService } from './service.js';

/** Execution export (NDJSON, CSV, Avro) and the task bundle's export and import, under `/api`. */
async function portability(app: FastifyInstance): Promise<void> {
  await app.register(portabilityRoutes, { service: createPortabilityService(app.services) });
}

export const portabilityPlugin = definePlugin({ name: 'portability', prefix: '/api', plugin: portability });
