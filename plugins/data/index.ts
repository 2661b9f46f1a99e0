import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import captures from './captures.js';
import { createCaptureService } from './capture-service.js';
import { createCookieService } from './cookie-service.js';
import { dataRoutes } from './routes.js';

export type { Capture, CaptureExtension, CaptureFilter, Captures, CaptureType } from './decorators.js';
export { COOKIE_JAR_KEY } from './cookie-service.js';

const PREFIX = '/api/data';

/**
 * Wrapped with fastify-plugin so `app.captures` reaches every later plugin (runs save screenshots,
 * executions delete them); hence the registry's prefix arrives as an option. The routes stay encapsulated.
 */
async function data(app: FastifyInstance, options: { prefix?: string }): Promise<void> {
  const { blob, config, logger, storage } = app.services;
  const service = createCaptureService(blob, config.dataDir, logger.child({ plugin: 'data' }));
  await app.register(captures, { service });
  await app.register(dataRoutes, {
    prefix: options.prefix || PREFIX, captures: service, cookies: createCookieService(storage.settings), executions: storage.executions,
  });
}

/** Captures (screenshots, recordings, kept in the blob store) and the stored browser cookies under `/api/data`; `app.captures`. */
export const dataPlugin = definePlugin({
  name: 'data',
  prefix: PREFIX,
  decorates: ['captures'],
  plugin: fp(data, {
    name: 'taskloom-data',
    fastify: '5.x',
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler'],
    decorators: { fastify: ['services'] },
  }),
});
