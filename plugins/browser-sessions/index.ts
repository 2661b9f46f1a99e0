import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import type { BrowserSessions } from '../headful/decorators.js';
import { attachDevtoolsRelay } from './devtools-relay.js';
import { RelayTokens } from './relay-tokens.js';
import { browserRoutes } from './routes.js';
import { SessionFolders } from './session-folders.js';

const PREFIX = '/api/browser';

/** The session endpoints and the DevTools relay, over `app.browserSessions` (the headful plugin's). */
async function browserSessions(app: FastifyInstance, options: { prefix?: string }): Promise<void> {
  const tokens = new RelayTokens();
  const logger = app.services.logger.child({ plugin: 'browser-sessions' });
  const folders = new SessionFolders(app.services.config.dataDir, logger);
  await folders.removeAll();
  // A session's folder goes when it is closed through the API (the next start removes those of crashed ones).
  const sessions: BrowserSessions = {
    ...app.browserSessions,
    close: async (sessionId) => {
      await app.browserSessions.close(sessionId);
      await folders.remove(sessionId);
    },
  };
  const endRelay = attachDevtoolsRelay({ app, sessions, tokens, folders, guard: app.services.outbound.guard, logger });
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
