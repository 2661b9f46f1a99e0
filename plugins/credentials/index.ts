import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import outputs from './outputs.js';
import { credentialRoutes } from './routes.js';
import { createCredentialService } from './service.js';

export type { Outputs } from './decorators.js';

/**
 * Wrapped with fastify-plugin so `app.outputs` reaches every later plugin (the runs push rows after a run);
 * the routes stay encapsulated under their prefix.
 */
async function credentials(app: FastifyInstance): Promise<void> {
  const service = createCredentialService(app.services);
  await app.register(outputs, { service });
  await app.register(credentialRoutes, { prefix: '/api/credentials', service });
}

/** Output-provider credentials under `/api/credentials`, and the `app.outputs` decorator. */
export const credentialsPlugin = definePlugin({
  name: 'credentials',
  decorates: ['outputs'],
  plugin: fp(credentials, { name: 'taskloom-credentials', dependencies: ['taskloom-route-policy', 'taskloom-error-handler'] }),
});
