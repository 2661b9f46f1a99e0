import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/registry.js';
import '../headful/decorators.js';
import { attachDevtoolsRelay } from './devtools-relay.js';
import { RelayTokens } from './relay-tokens.js';
import { browserRoutes } from './routes.js';

const PREFIX = '/api/browser';

/** The session endpoints and the DevTools relay, over `app.browserSessions` (the headful plugin's). */
async function browserSessions(app: FastifyInstance, options: { prefix?: string }): Promise<void> {
  const sessions = app.browserSessions;
  const tokens = new RelayTokens();
  const endRelay = attachDevtoolsRelay({ app, sessions, tokens, logger: app.services.logger.child({ plugin: 'browser-sessions' }) });
  // Before the server stops: relayed connections are not HTTP requests it would wait for or end.
  app.addHook('preClose', async () => endRelay());
  await app.register(browserRoutes, { prefix: options.prefix || PREFIX, sessions, tokens });
}

/** `POST /api/browser/open`, `POST /api/browser/close` and the relayed DevTools WebSocket endpoint. */
export const browserSessionsPlugin = definePlugin({
  name: 'browser-sessions',
  prefix: PREFIX,
  plugin: fp(browserSessions, {
    name: 'taskloom-browser-sessions',
    fastify: '5.x',
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler', 'taskloom-headful'],
    decorators: { fastify: ['services', 'browserSessions'] },
  }),
});
