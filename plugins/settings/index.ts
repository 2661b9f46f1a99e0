import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import { typedSettings } from './keys.js';
import { createProxyQuarantine } from './proxy-quarantine.js';
import { createProxyRotation } from './proxy-rotation.js';
import { createProxyService } from './proxy-service.js';
import { settingsRoutes } from './routes.js';
import './decorators.js';

const PREFIX = '/api/settings';

/**
 * Decorates every scope with `proxyRotation` (hence fastify-plugin, which also means the registry's prefix
 * is not applied here) and mounts the settings endpoints, encapsulated, under `/api/settings`.
 */
async function settings(app: FastifyInstance, options: { prefix?: string }): Promise<void> {
  const proxies = createProxyService(typedSettings(app.services.storage.settings), app.services.outbound.guard);
  // The guard checks each proxy again as a run takes it: the rule may have changed since it was saved.
  // Blocks after bot walls live in the storage's shared counters when it has them (every instance skips them).
  const quarantine = createProxyQuarantine(app.services.storage.counters);
  app.decorate('proxyRotation', createProxyRotation(proxies.read, Math.random, app.services.outbound.guard, quarantine));
  await app.register(settingsRoutes, { prefix: options.prefix || PREFIX });
}

/** Proxies and their rotation, AI provider keys and models, selector finder, theme. */
export const settingsPlugin = definePlugin({
  name: 'settings',
  prefix: PREFIX,
  decorates: ['proxyRotation'],
  plugin: fp(settings, {
    name: 'taskloom-settings',
    fastify: '5.x',
    dependencies: ['taskloom-route-policy'],
    decorators: { fastify: ['services'] },
  }),
});
