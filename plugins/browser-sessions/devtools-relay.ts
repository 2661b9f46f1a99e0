import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import WebSocket, { WebSocketServer } from 'ws';
import type { Logger } from '../../kernel/contracts/logger.js';
import { Errors, type TaskloomError } from '../../kernel/errors.js';
import type { BrowserSessions } from '../headful/decorators.js';
import type { RelayTokens } from './relay-tokens.js';
import { refuseUpgrade } from './upgrade-auth.js';

/** The path of a session's relayed DevTools endpoint. */
export const devtoolsPath = (sessionId: string) => `/api/browser/sessions/${encodeURIComponent(sessionId)}/devtools`;
const PATH = /^\/api\/browser\/sessions\/([A-Za-z0-9_-]{1,256})\/devtools\/?$/;
// Screenshots and traces travel in single messages.
const MAX_PAYLOAD = 256 * 1024 * 1024;
const UPSTREAM_OPEN_MS = 10_000;

export interface RelayOptions {
  app: FastifyInstance;
  sessions: BrowserSessions;
  tokens: RelayTokens;
  logger: Logger;
}

/**
 * Relays the DevTools protocol between a client on the service's own port and the browser's loopback
 * endpoint, after checking the caller's credentials. The browser's port is never exposed.
 * Returns the function that ends every relayed connection (shutdown).
 */
export function attachDevtoolsRelay(options: RelayOptions): () => void {
  const { app, sessions, tokens, logger } = options;
  const server = app.server;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_PAYLOAD });
  const live = new Set<WebSocket>();

  async function relay(req: IncomingMessage, socket: Duplex, head: Buffer, sessionId: string, token: string | null): Promise<void> {
    // The token (part of the URL) is never logged: only the session id is.
    if (!(token !== null && tokens.consume(token, sessionId))) {
      const refusal = await refuseUpgrade(app, req);
      if (refusal) return refuse(socket, refusal);
    }
    const endpoint = sessions.current()?.id === sessionId ? sessions.current()?.cdpEndpoint() : undefined;
    if (!endpoint) return refuse(socket, Errors.NOT_FOUND({}, { details: `Browser session ${sessionId} is not open` }));
    const upstream = new WebSocket(endpoint, { perMessageDeflate: false, maxPayload: MAX_PAYLOAD, handshakeTimeout: UPSTREAM_OPEN_MS });
    const opened = await new Promise<boolean>((resolve) => {
      upstream.once('open', () => resolve(true));
      upstream.once('error', () => resolve(false));
    });
    if (!opened) return refuse(socket, Errors.UPSTREAM_ERROR({ reason: 'The browser did not accept the DevTools connection' }));
    wss.handleUpgrade(req, socket, head, (client) => {
      live.add(client);
      live.add(upstream);
      pipe(client, upstream, () => { live.delete(client); live.delete(upstream); });
      logger.info({ sessionId }, 'DevTools client connected');
    });
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    const match = PATH.exec(url.pathname);
    if (!match) {
      // Another listener may serve this path; with none, answer instead of leaving the socket hanging.
      if (server.listenerCount('upgrade') === 1) refuse(socket, Errors.NOT_FOUND({}, { details: `No WebSocket endpoint at ${url.pathname}` }));
      return;
    }
    socket.on('error', () => undefined);
    relay(req, socket, head, match[1]!, url.searchParams.get('token')).catch((error: unknown) => {
      logger.error({ err: error, sessionId: match[1] }, 'relaying a DevTools connection failed');
      refuse(socket, Errors.INTERNAL_ERROR({ requestId: 'devtools relay' }));
    });
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    for (const socket of live) socket.terminate();
    live.clear();
    wss.close();
  };
}

/** Forwards every frame as it came (text stays text), and ends each side when the other ends. */
function pipe(client: WebSocket, upstream: WebSocket, done: () => void): void {
  const forward = (to: WebSocket) => (data: WebSocket.RawData, isBinary: boolean) => {
    if (to.readyState === WebSocket.OPEN) to.send(data, { binary: isBinary });
  };
  client.on('message', forward(upstream));
  upstream.on('message', forward(client));
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    for (const side of [client, upstream]) {
      if (side.readyState === WebSocket.OPEN) side.close(1000);
      else if (side.readyState === WebSocket.CONNECTING) side.terminate();
    }
    // A peer that never answers the close handshake does not hold the socket open.
    setTimeout(() => { client.terminate(); upstream.terminate(); }, 2000).unref();
    done();
  };
  for (const side of [client, upstream]) {
    side.on('close', end);
    side.on('error', end);
  }
}

/** Answers the upgrade request with the catalogue error's status and `{ error, details }`, then ends it. */
function refuse(socket: Duplex, error: TaskloomError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ error: error.code, details: error.message });
  socket.end(`HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), 1000).unref();
}
