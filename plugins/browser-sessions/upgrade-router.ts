import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { ClaimStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import type { LocalRelay } from './devtools-relay.js';
import { PEER_HEADER, type PeerAuth, type PeerPurpose } from './peer-auth.js';
import { claimKey, TOKEN_TTL_MS, type RelayTokens } from './relay-tokens.js';
import { notOpen, type RemoteSessions } from './remote-sessions.js';
import { answer, refuse } from '../../layers/websocket-upgrade/upgrade-answer.js';
import { refuseUpgrade } from '../../layers/websocket-upgrade/upgrade-auth.js';

const SESSIONS_PREFIX = '/api/browser/sessions/';
const PATH = /^\/api\/browser\/sessions\/([A-Za-z0-9_-]{1,256})\/(devtools|close|vnc)\/?$/;

export interface UpgradeRouterOptions {
  app: FastifyInstance;
  local: LocalRelay;
  remote: RemoteSessions;
  tokens: RelayTokens;
  /** Spends a relay token for every instance. */
  claims: ClaimStore;
  instanceId: string;
  peers: PeerAuth;
  /** Closes the session this instance holds; false when it holds no such session. */
  closeLocal(sessionId: string): Promise<boolean>;
  holdsLocally(sessionId: string): boolean;
  /** A connection to this instance's VNC server, when it holds `sessionId` and serves a display. */
  connectVnc(sessionId: string): Socket | undefined;
  logger: Logger;
}

/**
 * The service's WebSocket upgrades for browser sessions. A client's DevTools connection is let in by its token (any
 * instance verifies it; the storage spends it once), its API key or its session; then relayed here when this
 * instance holds the browser, else piped to the instance that does. A peer's request (an instance's signed header:
 * a DevTools connection it pipes, or a close) is served only by the holder. Returns the function that ends them all.
 */
export function attachUpgradeRouter(options: UpgradeRouterOptions): () => void {
  const { app, local, remote, tokens, peers, logger } = options;
  const server = app.server;
  const piped = new Set<Duplex>();
  const track = (ends: Duplex[]) => {
    for (const end of ends) {
      piped.add(end);
      end.once('close', () => piped.delete(end));
    }
  };

  async function fromPeer(req: IncomingMessage, socket: Duplex, head: Buffer, sessionId: string, purpose: PeerPurpose): Promise<void> {
    const from = peers.verify(req.headers[PEER_HEADER], purpose, sessionId);
    if (from === undefined) {
      return refuse(socket, Errors.UNAUTHORIZED({ hint: 'a peer request must be signed by an instance sharing this storage, for this instance, within 30 s, once' }));
    }
    if (purpose === 'close') {
      return (await options.closeLocal(sessionId)) ? answer(socket, 200, '{"success":true}') : refuse(socket, notOpen(sessionId));
    }
    if (purpose === 'vnc') return showDisplay(socket, head, sessionId);
    logger.info({ sessionId, from }, 'DevTools connection from another instance');
    return local.relay(req, socket, head, sessionId);
  }

  /** A VNC viewer of another instance: this display's VNC server, as raw bytes after the switch. */
  function showDisplay(socket: Duplex, head: Buffer, sessionId: string): void {
    const vnc = options.connectVnc(sessionId);
    if (!vnc) return refuse(socket, Errors.NOT_FOUND({}, { details: `No display serves browser session ${sessionId} here (USE_NOVNC is off, or it is not running)` }));
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: taskloom-vnc\r\nConnection: Upgrade\r\n\r\n');
    if (head.length > 0) vnc.write(head);
    const end = () => { socket.destroy(); vnc.destroy(); };
    for (const side of [socket, vnc]) {
      side.on('error', end);
      side.on('close', end);
    }
    vnc.pipe(socket);
    socket.pipe(vnc);
    track([socket, vnc]);
  }

  async function tokenAccepted(token: string | null, sessionId: string): Promise<boolean> {
    if (token === null || !tokens.consume(token, sessionId)) return false;
    // Signed and fresh: now spent for every instance (the first to claim it relays).
    return options.claims.claim(claimKey(token), options.instanceId, 2 * TOKEN_TTL_MS);
  }

  async function fromClient(req: IncomingMessage, socket: Duplex, head: Buffer, sessionId: string, token: string | null): Promise<void> {
    await local.prepare();
    // The token (part of the URL) is never logged: only the session id is.
    if (!(await tokenAccepted(token, sessionId))) {
      const refusal = await refuseUpgrade(app, req);
      if (refusal) return refuse(socket, refusal);
    }
    if (options.holdsLocally(sessionId)) return local.relay(req, socket, head, sessionId);
    const outcome = await remote.proxy(req, socket, head, sessionId, track);
    if (outcome === false) return refuse(socket, Errors.NOT_FOUND({}, { details: `Browser session ${sessionId} is not open` }));
    if (outcome !== true) answer(socket, outcome.status, outcome.body);
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    const match = PATH.exec(url.pathname);
    const isPeer = req.headers[PEER_HEADER] !== undefined;
    // A close and a display are a peer's requests only; to a client they are no endpoint.
    if (!match || (match[2] !== 'devtools' && !isPeer)) {
      // Its own paths it answers; another listener may serve the rest, and with none they are answered here too
      // (a socket nobody answers hangs).
      if (url.pathname.startsWith(SESSIONS_PREFIX) || server.listenerCount('upgrade') === 1) refuse(socket, Errors.NOT_FOUND({}, { details: `No WebSocket endpoint at ${url.pathname}` }));
      return;
    }
    const sessionId = match[1]!;
    const purpose = match[2] as PeerPurpose;
    socket.on('error', () => undefined);
    const handled = isPeer ? fromPeer(req, socket, head, sessionId, purpose) : fromClient(req, socket, head, sessionId, url.searchParams.get('token'));
    handled.catch((error: unknown) => {
      if (Errors.UPSTREAM_ERROR.is(error)) {
        logger.warn({ err: error, sessionId }, 'the instance holding the browser could not be reached');
        return refuse(socket, error);
      }
      logger.error({ err: error, sessionId }, 'relaying a DevTools connection failed');
      refuse(socket, Errors.INTERNAL_ERROR({ requestId: 'devtools relay' }));
    });
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    local.end();
    for (const end of piped) end.destroy();
    piped.clear();
  };
}
