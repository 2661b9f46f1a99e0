import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import { depthLimitedJsonParser } from '../../layers/json-depth/json-depth.js';

/** Every scope's `application/json` parser, unless a scope replaces it (it should use depthLimitedJsonParser too). */
async function jsonDepth(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, depthLimitedJsonParser(app));
}

/** The JSON nesting limit on request bodies: an observer of every route, mounted before the plugins that add routes. */
export const jsonDepthPlugin = definePlugin({
  name: 'json-depth',
  observesRoutes: true,
  plugin: fp(jsonDepth, { name: 'taskloom-json-depth', fastify: '5.x' }),
});
