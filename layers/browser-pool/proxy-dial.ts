import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { OutboundGuard } from '../../kernel/contracts/outbound.js';
import { OutboundBlockedError } from '../../kernel/errors.js';

/** A proxy the browser's traffic continues through (a task's proxy from the proxy settings). */
export interface UpstreamProxy {
  /** `http://`, `https://` or `socks5://` host[:port]; no scheme means http. */
  server: string;
  username?: string;
  password?: string;
}

/** How the forward proxy reaches a destination: checked by the outbound rule, through the upstream when there is one. */
export interface Dialer {
  /** A byte stream to host:port. Rejects with an OutboundBlockedError when the rule refuses it. */
  tunnel(host: string, port: number): Promise<Duplex>;
  /**
   * With an HTTP(S) upstream, plain `http:` requests go to it in absolute form (as a browser would send them):
   * `open` checks the destination and connects to the upstream; `authorization` is its Proxy-Authorization.
   */
  readonly httpUpstream?: { open(host: string, port: number): Promise<Duplex>; authorization?: string };
}

/** The upstream refused or failed (not the outbound rule): answered 502. Never holds credentials. */
export class UpstreamProxyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamProxyError';
  }
}

const HINT = 'set ALLOW_PRIVATE_NETWORKS=true to allow it';
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'socks5:': 1080 };

export function createDialer(guard: OutboundGuard, timeoutMs: number, upstream?: UpstreamProxy): Dialer {
  if (!upstream) {
    return {
      async tunnel(host, port) {
        if (guard.isLocalName(host)) throw new OutboundBlockedError(`host ${host} is the local machine; ${HINT}`);
        return connectChecked(guard, host, port, timeoutMs);
      },
    };
  }
  const proxy = parseUpstream(upstream.server);
  const { username, password } = upstream;
  if (proxy.protocol === 'socks5:') {
    return {
      async tunnel(host, port) {
        await checkForUpstream(guard, host);
        const addresses = await guard.resolve(proxy.hostname);
        let lastError: unknown;
        const { SocksClient } = await import('socks'); // with the first SOCKS5 tunnel, not with the service
        for (const { address } of addresses) {
          try {
            const { socket } = await SocksClient.createConnection({
              // The checked address, never the name: no second resolution.
              proxy: { host: address, port: proxy.port, type: 5, userId: username, password },
              destination: { host: unbracket(host), port },
              command: 'connect',
              timeout: timeoutMs,
            });
            return socket;
          } catch (error) {
            lastError = error;
          }
        }
        throw new UpstreamProxyError(`the SOCKS5 proxy ${proxy.host} failed: ${messageOf(lastError)}`, { cause: lastError });
      },
    };
  }
  const authorization = username !== undefined
    ? `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}` : undefined;
  const open = async (): Promise<Duplex> => {
    const socket = await connectChecked(guard, proxy.hostname, proxy.port, timeoutMs).catch((error: unknown) => {
      if (error instanceof OutboundBlockedError) throw error;
      throw new UpstreamProxyError(`cannot reach the proxy ${proxy.host}: ${messageOf(error)}`, { cause: error });
    });
    return proxy.protocol === 'https:' ? secure(socket, unbracket(proxy.hostname), timeoutMs) : socket;
  };
  return {
    async tunnel(host, port) {
      await checkForUpstream(guard, host);
      return connectThrough(await open(), `${host}:${port}`, authorization, timeoutMs, proxy.host);
    },
    httpUpstream: {
      async open(host) {
        await checkForUpstream(guard, host);
        return open();
      },
      authorization,
    },
  };
}

/** Resolves `host` through the guard (every address checked) and connects to a checked address: never resolving again. */
export async function connectChecked(guard: OutboundGuard, host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  const addresses = await guard.resolve(host);
  let lastError: unknown;
  for (const { address } of addresses) {
    try {
      return await connectTo(address, port, timeoutMs);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * Through an upstream the destination's name goes on to the upstream, which resolves it on its own network.
 * Refused here: the local machine's names, non-public literal addresses, and names this machine resolves to a
 * non-public address. A name that does not resolve here is left to the upstream.
 */
async function checkForUpstream(guard: OutboundGuard, host: string): Promise<void> {
  if (guard.isLocalName(host)) throw new OutboundBlockedError(`host ${host} is the local machine; ${HINT}`);
  try {
    await guard.resolve(host);
  } catch (error) {
    if (error instanceof OutboundBlockedError && error.unresolved) return;
    throw error;
  }
}

function connectTo(address: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    // Requests and TLS records go out as written: Nagle's delay would stall each exchange on loopback.
    const socket = net.connect({ host: address, port, noDelay: true });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connecting to ${address}:${port} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function secure(socket: net.Socket, hostname: string, timeoutMs: number): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const secured = tls.connect({ socket, servername: net.isIP(hostname) ? undefined : hostname });
    const timer = setTimeout(() => {
      secured.destroy();
      reject(new UpstreamProxyError(`the TLS handshake with the proxy ${hostname} timed out`));
    }, timeoutMs);
    secured.once('secureConnect', () => {
      clearTimeout(timer);
      secured.removeAllListeners('error');
      resolve(secured);
    });
    secured.once('error', (error) => {
      clearTimeout(timer);
      reject(new UpstreamProxyError(`TLS with the proxy ${hostname} failed: ${error.message}`, { cause: error }));
    });
  });
}

/** An HTTP CONNECT through the upstream on `socket`; resolves to the tunnel. */
function connectThrough(socket: Duplex, target: string, authorization: string | undefined, timeoutMs: number, proxyName: string): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...(authorization ? { 'proxy-authorization': authorization } : {}) },
      createConnection: () => socket,
      timeout: timeoutMs,
    });
    request.once('connect', (response, tunnel, head) => {
      if (response.statusCode === 200) {
        if (head.length > 0) tunnel.unshift(head);
        resolve(tunnel);
        return;
      }
      tunnel.destroy();
      reject(new UpstreamProxyError(`the proxy ${proxyName} answered ${response.statusCode} to CONNECT`));
    });
    request.once('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.once('error', (error) => {
      socket.destroy();
      reject(new UpstreamProxyError(`the proxy ${proxyName} failed: ${error.message}`, { cause: error }));
    });
    request.end();
  });
}

function parseUpstream(server: string): { protocol: string; hostname: string; host: string; port: number } {
  let url: URL;
  try {
    url = new URL(server.includes('://') ? server : `http://${server}`);
  } catch {
    throw new UpstreamProxyError('the proxy address is not valid');
  }
  if (!(url.protocol in DEFAULT_PORTS)) throw new UpstreamProxyError(`proxy scheme ${url.protocol} is not supported`);
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol]! : Number(url.port);
  return { protocol: url.protocol, hostname: url.hostname, host: `${url.hostname}:${port}`, port };
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
