// Local HTTP servers for browser tests: the fixture pages (./pages beside this file) with a few dynamic routes,
// and a counting HTTP proxy. Both listen on 127.0.0.1, port 0.
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PAGES_DIR = fileURLToPath(new URL('./pages/', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

/** The bytes `/download` serves: a fixed pattern a test can compute again. */
export function downloadBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8) * 7 + 3) & 0xff;
  return bytes;
}

export interface PagesServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Paths (with query) requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves the fixture pages, then the files of `extraDirs` (a test's own pages). Routes beyond the files:
 * `/cookies.html` also sets `visit` (1 h) and `session_id` (session, HttpOnly); `/set-cookie?name&value[&maxAge]`,
 * `/delete-cookie?name`, `/echo-cookies` (the Cookie header as text), `/slow?ms=N` (answers after N ms),
 * `/download?name&bytes[&type]` (an attachment of `bytes` bytes, `downloadBytes(bytes)`, named `name`).
 */
export async function startPagesServer(options: { extraDirs?: readonly string[] } = {}): Promise<PagesServer> {
  const dirs = [PAGES_DIR, ...(options.extraDirs ?? []).map((dir) => path.resolve(dir) + path.sep)];
  const requests: string[] = [];
  let visits = 0;
  const server = createServer((req, res) => {
    requests.push(req.url ?? '/');
    void handle(req, res).catch(() => send(res, 500, 'text/plain', 'fixture server error'));
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const q = url.searchParams;
    switch (url.pathname) {
      case '/set-cookie':
        res.setHeader('Set-Cookie', `${q.get('name')}=${q.get('value')}; Path=/${q.has('maxAge') ? `; Max-Age=${q.get('maxAge')}` : ''}`);
        return send(res, 200, TYPES['.html'], `<title>cookie set</title><p>${q.get('name')} set</p>`);
      case '/delete-cookie':
        res.setHeader('Set-Cookie', `${q.get('name')}=; Path=/; Max-Age=0`);
        return send(res, 200, TYPES['.html'], '<title>cookie deleted</title>');
      case '/echo-cookies':
        return send(res, 200, 'text/plain', req.headers.cookie ?? '');
      case '/download':
        res.setHeader('Content-Disposition', `attachment; filename="${q.get('name') ?? 'file.bin'}"`);
        return send(res, 200, q.get('type') ?? 'application/octet-stream', downloadBytes(Number(q.get('bytes') ?? 1000)));
      case '/slow':
        await new Promise((resolve) => setTimeout(resolve, Number(q.get('ms') ?? 1000)));
        return send(res, 200, TYPES['.html'], '<title>slow</title><p id="slow">finally</p>');
      case '/cookies.html':
        res.setHeader('Set-Cookie', [`visit=${++visits}; Path=/; Max-Age=3600`, 'session_id=abc123; Path=/; HttpOnly']);
        break;
    }
    const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
    for (const dir of dirs) {
      const file = path.join(dir, path.normalize(name));
      if (!file.startsWith(dir)) continue;
      const body = await readFile(file).catch(() => undefined);
      if (body) return send(res, 200, TYPES[path.extname(file)] ?? 'application/octet-stream', body);
    }
    return send(res, 404, 'text/plain', 'not found');
  }
  const origin = await listen(server);
  return { origin, requests, close: () => shut(server) };
}

export interface CountingProxy {
  /** `http://127.0.0.1:<port>`, for ContextOptions.proxy.server. */
  server: string;
  /** Hosts of the requests it answered (authorised ones only). */
  hosts: string[];
  /** Requests refused with 407 for missing or wrong credentials. */
  refused(): number;
  close(): Promise<void>;
}

/**
 * An HTTP proxy that answers every proxied GET itself with `<title>Proxied HOST</title>`, so a page on a
 * made-up host (`http://example.test/`) loads only through it. With credentials it demands Basic auth.
 */
export async function startCountingProxy(credentials?: { username: string; password: string }): Promise<CountingProxy> {
  const hosts: string[] = [];
  let refused = 0;
  const expected = credentials && `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  const server = createServer((req, res) => {
    if (expected && req.headers['proxy-authorization'] !== expected) {
      refused++;
      res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="test proxy"', 'Content-Type': 'text/plain' });
      res.end('proxy authentication required');
      return;
    }
    const host = req.headers.host ?? 'unknown';
    hosts.push(host);
    send(res, 200, TYPES['.html'], `<title>Proxied ${host}</title><p id="proxied">${req.url}</p>`);
  });
  server.on('connect', (_req, socket) => socket.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n'));
  const origin = await listen(server);
  return { server: origin, hosts, refused: () => refused, close: () => shut(server) };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function shut(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
