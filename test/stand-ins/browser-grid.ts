// A stand-in for a browser grid's WebSocket front (Browserless, Moon, Selenium Grid's CDP endpoint): each
// WebSocket connection is one session, admitted while fewer than `maxSessions` are open and relayed byte for
// byte to a real browser endpoint (a Playwright server or a Chromium DevTools URL); beyond that, or when told,
// the upgrade is answered HTTP 429 or 503 (with Retry-After), or held without an answer (a grid queueing).
import { createServer, type IncomingMessage } from 'node:http';
import net from 'node:net';

export interface BrowserGrid {
  port: number;
  /** A session URL on the grid: `ws://127.0.0.1:<port><path>`; the path and query are the caller's (a token, say). */
  url(pathAndQuery: string): string;
  /** Sessions open now. */
  readonly active: number;
  /** Upgrades asked for, sessions admitted, refused (429/503) and held unanswered, since the start. */
  readonly attempts: number;
  readonly admitted: number;
  readonly refused: number;
  readonly held: number;
  /** At most this many sessions at once (default: no limit); more are answered 429. */
  maxSessions: number;
  /** Refuse every new session with this status, or hold it unanswered; undefined: admit (within maxSessions). */
  refuseWith: 429 | 503 | 'hang' | undefined;
  /** Ends every open session at once (the grid killed them, or the network dropped). */
  cutAll(): void;
  close(): Promise<void>;
}

/** Relays every admitted session to `upstream` (a port on 127.0.0.1 and the path the browser listens on). */
export async function startBrowserGrid(upstream: { port: number; path: string }): Promise<BrowserGrid> {
  const sockets = new Set<net.Socket>();
  const sessions = new Set<net.Socket>();
  const counts = { attempts: 0, admitted: 0, refused: 0, held: 0 };
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
  };
  const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('a WebSocket grid'));
  const grid: BrowserGrid = {
    port: 0,
    url: (pathAndQuery) => `ws://127.0.0.1:${grid.port}${pathAndQuery}`,
    get active() { return sessions.size; },
    get attempts() { return counts.attempts; },
    get admitted() { return counts.admitted; },
    get refused() { return counts.refused; },
    get held() { return counts.held; },
    maxSessions: Number.POSITIVE_INFINITY,
    refuseWith: undefined,
    cutAll() {
      for (const socket of sessions) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };

  server.on('upgrade', (req: IncomingMessage, client: net.Socket, head: Buffer) => {
    counts.attempts++;
    track(client);
    const refusal = grid.refuseWith ?? (sessions.size >= grid.maxSessions ? 429 : undefined);
    if (refusal === 'hang') {
      counts.held++;
      return;
    }
    if (refusal !== undefined) {
      counts.refused++;
      const text = refusal === 429 ? 'Too Many Requests' : 'Service Unavailable';
      client.end(`HTTP/1.1 ${refusal} ${text}\r\nRetry-After: 1\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy`);
      return;
    }
    counts.admitted++;
    sessions.add(client);
    client.on('close', () => sessions.delete(client));
    const browser = net.connect(upstream.port, '127.0.0.1');
    track(browser);
    browser.on('connect', () => {
      // The upgrade request as the client sent it, to the browser's own path and host.
      const headers: string[] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i]!;
        headers.push(`${name}: ${name.toLowerCase() === 'host' ? `127.0.0.1:${upstream.port}` : req.rawHeaders[i + 1]}`);
      }
      browser.write(`GET ${upstream.path} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      if (head.length) browser.write(head);
      client.pipe(browser).pipe(client);
    });
    const end = () => { client.destroy(); browser.destroy(); };
    client.on('close', end);
    browser.on('close', end);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  grid.port = (server.address() as net.AddressInfo).port;
  return grid;
}
