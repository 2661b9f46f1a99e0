import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import type { BrowserSessions } from '../headful/decorators.js';
import '../instances/decorators.js';
import { createLocalRelay } from './devtools-relay.js';
import { PeerAuth } from './peer-auth.js';
import { RelayTokens, TOKEN_TTL_MS } from './relay-tokens.js';
import { RemoteSessions } from './remote-sessions.js';
import { browserRoutes } from './routes.js';
import { SessionFolders } from './session-folders.js';
import { SessionRecords } from './session-records.js';
import { attachUpgradeRouter } from './upgrade-router.js';

const PREFIX = '/api/browser';

/**
 * The session endpoints and the DevTools relay, over `app.browserSessions` (the headful plugin's). Each instance
 * holds its own managed browser; the sessions are recorded in the storage (session-records.ts), so a session's
 * `wsEndpoint` and `POST /api/browser/close` work through any instance sharing it.
 */
async function browserSessions(app: FastifyInstance, options: { prefix?: string }): Promise<void> {
  const { services, instance } = app;
  const tokens = new RelayTokens(TOKEN_TTL_MS, Date.now, services.sharedKey('browser relay tokens'));
  const logger = services.logger.child({ plugin: 'browser-sessions' });
  const folders = new SessionFolders(services.config.dataDir, logger);
  await folders.removeAll();
  const records = new SessionRecords(services.storage.settings, instance);
  // A previous process with this INSTANCE_ID held browsers that are gone.
  await records.release();
  const peers = new PeerAuth(services.sharedKey('instance peers'), instance.id);
  const remote = new RemoteSessions({ records, auth: peers, instance, logger });
  // A session's folder and record go when it is closed through the API (the next start removes those of crashed ones).
  const sessions: BrowserSessions = {
    ...app.browserSessions,
    open: async (openOptions) => {
      const session = await app.browserSessions.open(openOptions);
      await records.hold(session.id);
      return session;
    },
    close: async (sessionId) => {
      await app.browserSessions.close(sessionId);
      tokens.revoke(sessionId);
      await folders.remove(sessionId);
      await records.release(sessionId);
    },
  };
  const holdsLocally = (sessionId: string) => sessions.current()?.id === sessionId;
  const endRelay = attachUpgradeRouter({
    app,
    local: createLocalRelay({ sessions, folders, guard: services.outbound.guard, logger }),
    remote,
    tokens,
    claims: services.storage.claims,
    instanceId: instance.id,
    peers,
    holdsLocally,
    async closeLocal(sessionId) {
      if (holdsLocally(sessionId)) {
        await sessions.close(sessionId);
        return true;
      }
      await records.release(sessionId); // a record left by a browser that went away
      return false;
    },
    connectVnc: (sessionId) => (holdsLocally(sessionId) ? app.headfulSession.connectVnc() : undefined),
    logger,
  });
  // noVNC on any instance shows the display of the instance holding the browser: this one's when it holds a session
  // or none is held elsewhere; with several held elsewhere, this one's too (a viewer follows one browser).
  app.headfulSession.routeVnc(async (viewer) => {
    if (sessions.current()) return false;
    const elsewhere = await remote.heldElsewhere();
    return elsewhere.length === 1 ? remote.tunnelVnc(viewer, elsewhere[0]!) : false;
  });
  // Before the server stops: relayed connections are not HTTP requests it would wait for or end.
  app.addHook('preClose', async () => endRelay());
  app.addHook('onClose', async () => {
    await records.release().catch((error: unknown) => logger.warn({ err: error }, 'removing this instance\'s session records failed; they end with its lease'));
  });
  await app.register(browserRoutes, { prefix: options.prefix || PREFIX, sessions, tokens, remote });
}

/** `POST /api/browser/open`, `POST /api/browser/close` and the relayed DevTools WebSocket endpoint. */
export const browserSessionsPlugin = definePlugin({
  name: 'browser-sessions',
  prefix: PREFIX,
  plugin: fp(browserSessions, {
    name: 'taskloom-browser-sessions',
    fastify: '5.x',
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler', 'taskloom-headful', 'taskloom-instances'],
    decorators: { fastify: ['services', 'browserSessions', 'headfulSession', 'instance'] },
  }),
});
