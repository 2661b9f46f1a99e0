// Stand-ins for a user's upstream proxies (an HTTP proxy with CONNECT, a SOCKS5 proxy), both with credentials,
// and a host-name table standing in for DNS, so tests of the outbound rule reach made-up names offline.
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { HostLookup } from '../../kernel/outbound/guard.js';

/** A resolver from a table; a name not in it does not resolve. A function value answers per call (rebinding). */
export function tableLookup(table: Record<string, string | string[] | (() => string)>): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const entry = table[hostname.toLowerCase()];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const addresses = typeof entry === 'function' ? [entry()] : Array.isArray(entry) ? entry : [entry];
    return addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

export interface UpstreamSeen {
  /** `CONNECT`, `GET`, ... or `SOCKS5`. */
  method: string;
  /** host:port asked for (the host as the client sent it: a name stays a name). */
  target: string;
  /** Whether the credentials matched. */
  authorised: boolean;
}

export interface UpstreamStandIn {
  /** `http://host:port` or `socks5://host:port`. */
  server: string;
  seen: UpstreamSeen[];
  close(): Promise<void>;
}

const CREDENTIALS = { username: 'proxy-user', password: 'proxy-pass-PLANTED' };
export const UPSTREAM_CREDENTIALS = CREDENTIALS;

/** An HTTP proxy demanding UPSTREAM_CREDENTIALS; it resolves names with `resolve` (its own network). */
export async function startHttpUpstream(host: string, resolve: (name: string) => string): Promise<UpstreamStandIn> {
  const seen: UpstreamSeen[] = [];
  const expected = `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64')}`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '');
    const authorised = req.headers['proxy-authorization'] === expected;
    seen.push({ method: req.method ?? '', target: `${url.hostname}:${url.port || 80}`, authorised });
    if (!authorised) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="up"' }).end();
    const onward = http.request({ host: resolve(url.hostname), port: url.port || 80, method: req.method, path: url.pathname + url.search, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    onward.on('error', () => res.writeHead(502).end());
    req.pipe(onward);
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const authorised = req.headers['proxy-authorization'] === expected;
    const [name, port] = splitTarget(req.url ?? '');
    seen.push({ method: 'CONNECT', target: `${name}:${port}`, authorised });
    if (!authorised) return void socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="up"\r\n\r\n');
    const remote = net.connect(port, resolve(name), () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      remote.write(head);
      remote.pipe(socket).pipe(remote);
    });
    remote.on('error', () => socket.destroy());
    socket.on('error', () => remote.destroy());
  });
  return { server: `http://${await listen(server, host)}`, seen, close: () => shut(server) };
}

/** A SOCKS5 proxy (RFC 1928 CONNECT, RFC 1929 username/password) demanding UPSTREAM_CREDENTIALS. */
export async function startSocksUpstream(host: string, resolve: (name: string) => string): Promise<UpstreamStandIn> {
  const seen: UpstreamSeen[] = [];
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.write(Buffer.from([5, 2])); // username/password
      socket.once('data', (auth: Buffer) => {
        const userLength = auth[1]!;
        const user = auth.subarray(2, 2 + userLength).toString();
        const pass = auth.subarray(3 + userLength, 3 + userLength + auth[2 + userLength]!).toString();
        const authorised = user === CREDENTIALS.username && pass === CREDENTIALS.password;
        socket.write(Buffer.from([1, authorised ? 0 : 1]));
        if (!authorised) {
          seen.push({ method: 'SOCKS5', target: '', authorised });
          return void socket.end();
        }
        socket.once('data', (request: Buffer) => {
          const type = request[3];
          const name = type === 3 ? request.subarray(5, 5 + request[4]!).toString()
            : type === 1 ? [...request.subarray(4, 8)].join('.') : 'ipv6';
          const port = request.readUInt16BE(request.length - 2);
          seen.push({ method: 'SOCKS5', target: `${name}:${port}`, authorised });
          const remote = net.connect(port, resolve(name), () => {
            socket.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
            remote.pipe(socket).pipe(remote);
          });
          remote.on('error', () => socket.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
        });
      });
    });
  });
  return { server: `socks5://${await listen(server, host)}`, seen, close: () => shut(server) };
}

function splitTarget(target: string): [string, number] {
  const colon = target.lastIndexOf(':');
  return [target.slice(0, colon).replace(/^\[|\]$/g, ''), Number(target.slice(colon + 1))];
}

const open = new WeakMap<net.Server, Set<net.Socket>>();

async function listen(server: net.Server, host: string): Promise<string> {
  const sockets = new Set<net.Socket>();
  open.set(server, sockets);
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, host);
  await once(server, 'listening');
  return `${host}:${(server.address() as AddressInfo).port}`;
}

async function shut(server: net.Server): Promise<void> {
  for (const socket of open.get(server) ?? []) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
