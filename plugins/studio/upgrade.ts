import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../../kernel/contracts/logger.js';
import { Errors, TaskloomError } from '../../kernel/errors.js';
import { refuse } from '../../layers/websocket-upgrade/upgrade-answer.js';
import { refusePublicUpgrade, refuseUpgrade } from '../../layers/websocket-upgrade/upgrade-auth.js';

/** One WebSocket endpoint: its path, and what to do once the client is let in (throw a TaskloomError to refuse). */
export interface SocketRoute {
  path: RegExp;
  /** Needs no user (the route checks its own secret in `accept`); the Host and same-origin rules still apply. */
  public?: boolean;
  /** Checks the request (after auth) and resolves to what serves the socket once upgraded. */
  accept(match: RegExpExecArray, req: IncomingMessage): Promise<(ws: WebSocket) => void>;
}

/** The largest message a client may send (input events are a few hundred bytes). */
const MAX_PAYLOAD = 64 * 1024;

/**
 * The studio's WebSocket endpoints on the service's own server, let in by the API's rules for an upgrade (API key
 * header, session cookie from this service's pages, or AUTH_DISABLED; see layers/websocket-upgrade/upgrade-auth.ts).
 * Returns the function that closes them all.
 */
export function attachSocketRoutes(app: FastifyInstance, routes: SocketRoute[], logger: Logger): () => void {
  // ws loads with the first upgrade, not at start-up.
  let wss: Promise<WebSocketServer> | undefined;
  const sockets = () => (wss ??= import('ws').then(({ WebSocketServer: Server }) => new Server({ noServer: true, maxPayload: MAX_PAYLOAD })));
  const server = app.server;

  async function serve(req: IncomingMessage, socket: Duplex, head: Buffer, route: SocketRoute, match: RegExpExecArray): Promise<void> {
    const refusal = route.public ? refusePublicUpgrade(app, req) : await refuseUpgrade(app, req);
    if (refusal) return refuse(socket, refusal);
    const handler = await route.accept(match, req);
    (await sockets()).handleUpgrade(req, socket, head, (ws) => handler(ws));
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(req.url ?? '/', 'http://studio');
    for (const route of routes) {
      const match = route.path.exec(pathname);
      if (!match) continue;
      socket.on('error', () => undefined);
      serve(req, socket, head, route, match).catch((error: unknown) => {
        if (error instanceof TaskloomError) return refuse(socket, error);
        logger.error({ err: error }, 'opening a live view failed');
        refuse(socket, Errors.INTERNAL_ERROR({ requestId: 'live view' }));
      });
      return;
    }
    // The browser-sessions relay answers its own paths and leaves the rest to the other listeners: answer those.
    if (!pathname.startsWith('/api/browser/sessions/')) refuse(socket, Errors.NOT_FOUND({}, { details: `No WebSocket endpoint at ${pathname}` }));
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    void wss?.then((open) => {
      for (const client of open.clients) client.terminate();
      open.close();
    });
  };
}
