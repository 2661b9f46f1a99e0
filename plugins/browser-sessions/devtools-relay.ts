import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../../kernel/contracts/logger.js';
import { Errors } from '../../kernel/errors.js';
import type { OutboundGuard } from '../../kernel/outbound/index.js';
import type { BrowserSessions } from '../headful/decorators.js';
import { internalTarget, type CheckContext } from './devtools-checks.js';
import { filterMessage } from './devtools-filter.js';
import type { SessionFolders } from './session-folders.js';
import { refuse } from '../../layers/websocket-upgrade/upgrade-answer.js';

/** The path of a session's relayed DevTools endpoint. */
export const devtoolsPath = (sessionId: string) => `/api/browser/sessions/${encodeURIComponent(sessionId)}/devtools`;
// Screenshots and traces travel in single messages.
const MAX_PAYLOAD = 256 * 1024 * 1024;
const UPSTREAM_OPEN_MS = 10_000;

export interface LocalRelayOptions {
  sessions: BrowserSessions;
  folders: SessionFolders;
  /** The outbound rule, which URLs the client has the browser open must pass. */
  guard: OutboundGuard;
  logger: Logger;
}

/** The relay of this instance's own browser: `relay` takes an upgrade whose caller was already let in. */
export interface LocalRelay {
  /** Loads ws (with the first DevTools upgrade, not with the service). */
  prepare(): Promise<void>;
  relay(req: IncomingMessage, socket: Duplex, head: Buffer, sessionId: string): Promise<void>;
  /** Ends every relayed connection (shutdown). */
  end(): void;
}

/** Refusals logged per connection; past that only a count at its end. */
const LOGGED_REFUSALS = 20;

/**
 * Relays the DevTools protocol between a client and the browser's loopback endpoint. The browser's port is never
 * exposed. Each message from the client passes devtools-filter.ts first: methods that reach the host are answered
 * with an error instead. Only the instance holding the browser runs this (others pipe to it: upgrade-router.ts), so
 * every message is judged exactly once.
 */
export function createLocalRelay(options: LocalRelayOptions): LocalRelay {
  const { sessions, folders, guard, logger } = options;
  // ws loads with the first DevTools upgrade, not with the service.
  let ws: Promise<{ WebSocket: typeof WebSocket; wss: WebSocketServer }> | undefined;
  const loadWs = () => (ws ??= import('ws').then(({ default: WebSocket, WebSocketServer }) => ({
    WebSocket, wss: new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_PAYLOAD }),
  })));
  const live = new Set<WebSocket>();

  async function relay(req: IncomingMessage, socket: Duplex, head: Buffer, sessionId: string): Promise<void> {
    const { WebSocket, wss } = await loadWs();
    const session = sessions.current()?.id === sessionId ? sessions.current() : undefined;
    const endpoint = session?.cdpEndpoint();
    if (!endpoint) return refuse(socket, Errors.NOT_FOUND({}, { details: `Browser session ${sessionId} is not open` }));
    const context: CheckContext = { downloadsDir: await folders.prepare(sessionId, session!.pid), guard, internalSessions: new Set() };
    const upstream = new WebSocket(endpoint, { perMessageDeflate: false, maxPayload: MAX_PAYLOAD, handshakeTimeout: UPSTREAM_OPEN_MS });
    const opened = await new Promise<boolean>((resolve) => {
      upstream.once('open', () => resolve(true));
      upstream.once('error', () => resolve(false));
    });
    if (!opened) return refuse(socket, Errors.UPSTREAM_ERROR({ reason: 'The browser did not accept the DevTools connection' }));
    wss.handleUpgrade(req, socket, head, (client) => {
      live.add(client);
      live.add(upstream);
      pipe(client, upstream, context, logger.child({ sessionId }), () => { live.delete(client); live.delete(upstream); });
      logger.info({ sessionId }, 'DevTools client connected');
    });
  }

  return {
    prepare: async () => { await loadWs(); },
    relay,
    end() {
      for (const socket of live) socket.terminate();
      live.clear();
      void ws?.then(({ wss }) => wss.close());
    },
  };
}

/**
 * Forwards the browser's frames as they came, and the client's once the filter let them through, in the
 * order sent (a check may wait for name resolution); ends each side when the other ends.
 */
function pipe(client: WebSocket, upstream: WebSocket, context: CheckContext, logger: Logger, done: () => void): void {
  upstream.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
    // Noted before the client hears of the session, so its first message to it is already judged.
    noteSessions(data as Buffer, context.internalSessions);
    if (client.readyState === client.OPEN) client.send(data, { binary: isBinary });
  });
  let queue = Promise.resolve();
  let refused = 0;
  client.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
    // The protocol is JSON text; a binary frame is nothing this relay can read.
    if (isBinary) return client.close(1003, 'DevTools messages are text');
    queue = queue.then(async () => {
      const outcome = await filterMessage(data.toString(), context);
      if ('forward' in outcome) {
        if (upstream.readyState === upstream.OPEN) upstream.send(outcome.forward);
        return;
      }
      if (client.readyState === client.OPEN) client.send(outcome.answer);
      if (++refused <= LOGGED_REFUSALS) logger.warn({ method: outcome.method, reason: outcome.reason }, 'DevTools method refused');
    }).catch((error: unknown) => {
      logger.error({ err: error }, 'filtering a DevTools message failed; the connection ends');
      client.terminate();
    });
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    if (refused > LOGGED_REFUSALS) logger.warn({ refused }, 'DevTools methods refused on this connection');
    for (const side of [client, upstream]) {
      if (side.readyState === side.OPEN) side.close(1000);
      else if (side.readyState === side.CONNECTING) side.terminate();
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

/** Keeps `internal` up to date with the sessions attached to the browser's own pages. */
function noteSessions(data: Buffer, internal: Set<string>): void {
  // Most frames are answers and page events (screenshots among them): only these two are read.
  const attached = data.includes('"Target.attachedToTarget"');
  if (!attached && !data.includes('"Target.detachedFromTarget"')) return;
  let event: { method?: string; params?: { sessionId?: unknown; targetInfo?: { type?: unknown; url?: unknown } } };
  try {
    event = JSON.parse(data.toString());
  } catch {
    return;
  }
  const sessionId = event.params?.sessionId;
  if (typeof sessionId !== 'string') return;
  if (event.method === 'Target.attachedToTarget' && internalTarget(event.params?.targetInfo)) internal.add(sessionId);
  else if (event.method === 'Target.detachedFromTarget') internal.delete(sessionId);
}
