import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { OutboundGuard } from '../../kernel/contracts/outbound.js';
import { OutboundBlockedError } from '../../kernel/errors.js';
import { createDialer, type Dialer, type UpstreamProxy } from './proxy-dial.js';

export interface ForwardProxyOptions {
  guard: OutboundGuard;
  logger: Logger;
  /** Continue through this proxy (a task's proxy) after the destination passed the rule. */
  upstream?: UpstreamProxy;
  /** Limit for reaching a destination or the upstream (default 30000 ms). */
  connectTimeoutMs?: number;
}

/**
 * An HTTP proxy on 127.0.0.1 that every browser the service launches sends all its traffic through, so the
 * outbound rule holds for whatever the page does (redirects, scripts, subresources, WebSockets, a DevTools
 * client): CONNECT tunnels (https, wss) and absolute-form requests (http, ws). Each connection resolves the
 * destination here and connects to the address it checked (a rebinding name gets no second answer); a refused
 * one gets 403 with the reason.
 */
export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`, for `--proxy-server` or a browser context's proxy. */
  readonly url: string;
  /** Connections the browser opened through it since it started (tests, metrics). */
  connections(): number;
  /** Stops listening and ends every connection. Idempotent. */
  close(): Promise<void>;
}

/** Hop-by-hop headers: they concern the connection to the proxy, not the request passed on. */
const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
/** One log line per refused destination per minute: a page retrying in a loop must not flood the log. */
const LOG_EVERY_MS = 60_000;

export async function startForwardProxy(options: ForwardProxyOptions): Promise<ForwardProxy> {
  const { guard, logger } = options;
  const timeoutMs = options.connectTimeoutMs ?? 30_000;
  const dialer = createDialer(guard, timeoutMs, options.upstream);
  const agent = new DialingAgent(dialer);
  const sockets = new Set<Duplex>();
  const lastLogged = new Map<string, number>();
  let opened = 0;

  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  /** Logs a refusal by host and port only: a path or query may carry secrets. */
  const refused = (destination: string, error: OutboundBlockedError) => {
    const now = Date.now();
    if ((lastLogged.get(destination) ?? -Infinity) > now - LOG_EVERY_MS) return;
    if (lastLogged.size > 1000) lastLogged.clear();
    lastLogged.set(destination, now);
    logger.warn({ destination, reason: error.reason }, 'the browser was refused a connection by the outbound rule');
  };

  const failure = (destination: string, error: unknown): { status: number; body: string } => {
    if (error instanceof OutboundBlockedError) {
      refused(destination, error);
      return { status: 403, body: `Blocked by taskloom's outbound rule: ${error.reason}\n` };
    }
    return { status: 502, body: `taskloom could not reach ${destination}: ${error instanceof Error ? error.message : String(error)}\n` };
  };

  const server = http.createServer((request, response) => {
    void forward(request, response);
  });
  server.on('connection', (socket: Socket) => track(socket));

  // CONNECT host:port: https and wss (and ws, which Chromium tunnels too).
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    const target = parseAuthority(request.url ?? '');
    if (!target) return void answerRaw(client, 400, 'CONNECT needs host:port\n');
    opened++;
    dialer.tunnel(target.host, target.port).then((remote) => {
      track(remote);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) remote.write(head);
      splice(client, remote);
    }, (error: unknown) => {
      const { status, body } = failure(`${target.host}:${target.port}`, error);
      answerRaw(client, status, body);
    });
  });

  // An absolute-form WebSocket upgrade (ws:// sent without CONNECT).
  server.on('upgrade', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    const url = absoluteUrl(request);
    if (!url) return void answerRaw(client, 400, 'a proxied request needs an absolute http:// URL\n');
    const port = Number(url.port || 80);
    opened++;
    dialer.tunnel(url.hostname, port).then((remote) => {
      track(remote);
      const lines = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) {
        const name = request.rawHeaders[i]!;
        if (!name.toLowerCase().startsWith('proxy-')) lines.push(`${name}: ${request.rawHeaders[i + 1]}`);
      }
      remote.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) remote.write(head);
      splice(client, remote);
    }, (error: unknown) => {
      const { status, body } = failure(`${url.hostname}:${port}`, error);
      answerRaw(client, status, body);
    });
  });

  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = absoluteUrl(request);
    if (!url) return answer(response, 400, 'a proxied request needs an absolute http:// URL\n');
    const port = Number(url.port || 80);
    const destination = `${url.hostname}:${port}`;
    opened++;
    const headers: Array<[string, string]> = [];
    for (let i = 0; i < request.rawHeaders.length; i += 2) {
      if (!HOP_BY_HOP.has(request.rawHeaders[i]!.toLowerCase())) headers.push([request.rawHeaders[i]!, request.rawHeaders[i + 1]!]);
    }
    const upstream = dialer.httpUpstream;
    if (upstream?.authorization) headers.push(['Proxy-Authorization', upstream.authorization]);
    const outgoing = http.request({
      agent,
      host: url.hostname,
      port,
      method: request.method,
      // An HTTP upstream takes the absolute form, as the browser sent it; a destination the origin form.
      path: upstream ? url.href : `${url.pathname}${url.search}`,
      headers: headers.flat() as unknown as http.OutgoingHttpHeaders,
      setHost: false,
    });
    outgoing.once('response', (incoming) => {
      const back: string[] = [];
      for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
        if (!HOP_BY_HOP.has(incoming.rawHeaders[i]!.toLowerCase())) back.push(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
      }
      response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, back);
      incoming.pipe(response);
      incoming.once('error', () => response.destroy());
    });
    // The browser gave up on it: so does the request it was waiting for.
    response.once('close', () => { if (!response.writableFinished) outgoing.destroy(); });
    outgoing.once('error', (error) => {
      if (response.headersSent) return void response.destroy();
      const { status, body } = failure(destination, error);
      answer(response, status, body);
    });
    request.pipe(outgoing);
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    connections: () => opened,
    close() {
      closing ??= (async () => {
        const closed = once(server, 'close');
        server.close();
        agent.destroy();
        for (const socket of sockets) socket.destroy();
        await closed;
      })();
      return closing;
    },
  };
}

/** A keep-alive agent whose connections come from the dialer (checked, or through the upstream). */
class DialingAgent extends http.Agent {
  constructor(private readonly dialer: Dialer) {
    super({ keepAlive: true, maxFreeSockets: 8 });
  }

  override createConnection(options: http.ClientRequestArgs, callback?: (error: Error | null, socket: Duplex) => void): Duplex {
    const host = String(options.host);
    const port = Number(options.port);
    const { httpUpstream } = this.dialer;
    const dialed = httpUpstream ? httpUpstream.open(host, port) : this.dialer.tunnel(host, port);
    dialed.then((socket) => callback?.(null, socket), (error: Error) => callback?.(error, undefined as unknown as Duplex));
    // Node's Agent waits for the callback when nothing is returned.
    return undefined as unknown as Duplex;
  }
}

function splice(a: Duplex, b: Duplex): void {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.once('close', end);
  b.once('close', end);
}

function answer(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.end(body);
}

function answerRaw(socket: Duplex, status: number, body: string): void {
  const text = http.STATUS_CODES[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${text}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/** `host:port` of a CONNECT request (IPv6 in brackets); undefined when malformed. */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  try {
    const url = new URL(`http://${authority}`);
    const port = Number(authority.slice(authority.lastIndexOf(':') + 1));
    if (!Number.isInteger(port) || port < 1 || port > 65535 || url.username || url.pathname !== '/') return undefined;
    return { host: url.hostname, port };
  } catch {
    return undefined;
  }
}

function absoluteUrl(request: IncomingMessage): URL | undefined {
  try {
    const url = new URL(request.url ?? '');
    return url.protocol === 'http:' && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}
