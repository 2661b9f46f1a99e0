import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import { accessGuard } from './guard.js';
import { apiKeyRoutes } from './routes.js';

/**
 * The scope check every route goes through (each declares `config.access`; the kernel refuses a route without
 * one). It observes every route, so it adds none itself: the key routes are a plugin of their own.
 */
export const accessPlugin = definePlugin({
  name: 'access',
  observesRoutes: true,
  plugin: fp(async (app: FastifyInstance) => {
    app.addHook('preValidation', accessGuard(app));
  }, { name: 'taskloom-access', fastify: '5.x', dependencies: ['taskloom-route-policy'] }),
});

/** Named API keys under `/api/keys` (auth contract 1.2). */
export const apiKeysPlugin = definePlugin({
  name: 'api-keys',
  prefix: '/api/keys',
  plugin: fp(async (app: FastifyInstance, options: { prefix?: string }) => {
    await app.register(apiKeyRoutes, { prefix: options.prefix || '/api/keys' });
  }, { name: 'taskloom-api-keys', fastify: '5.x', dependencies: ['taskloom-route-policy', 'taskloom-error-handler', 'taskloom-access'] }),
});
