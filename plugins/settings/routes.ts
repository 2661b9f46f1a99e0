import type { FastifyInstance } from 'fastify';
import { aiRoutes } from './ai-routes.js';
import { preferenceRoutes } from './preference-routes.js';
import { proxyRoutes } from './proxy-routes.js';

/** Every settings endpoint, under the plugin's prefix. */
export async function settingsRoutes(scope: FastifyInstance): Promise<void> {
  await scope.register(proxyRoutes);
  await scope.register(preferenceRoutes);
  await scope.register(aiRoutes);
}
