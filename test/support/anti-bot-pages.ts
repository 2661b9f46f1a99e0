// A local server of the bot-wall test pages (test/fixtures/pages/anti-bot/): `/<name>.html?status=N` answers the
// file with HTTP status N (default 200). The frames and scripts the widgets and challenge pages load
// (`/recaptcha/...`, `/hcaptcha/...`, `/cdn-cgi/...`) answer a stub, so nothing leaves the machine.
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../fixtures/pages/anti-bot/', import.meta.url));

export interface AntiBotPages {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Paths requested so far, in order. */
  requests: string[];
  /** The token `/verify?token=` lets through to content.html (else it shows captcha-form.html again). */
  acceptToken: string;
  close(): Promise<void>;
}

export async function startAntiBotPages(): Promise<AntiBotPages> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://pages');
    requests.push(url.pathname + url.search);
    if (/^\/(recaptcha|hcaptcha|cdn-cgi)\//.test(url.pathname)) {
      const script = url.pathname.includes('orchestrate');
      res.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html; charset=utf-8' }).end(script ? '/* challenge stub */' : '<p>widget frame</p>');
      return;
    }
    const verified = url.pathname === '/verify' ? (url.searchParams.get('token') === pages.acceptToken ? 'content.html' : 'captcha-form.html') : undefined;
    const name = verified ?? path.basename(url.pathname);
    void readFile(path.join(DIR, name.endsWith('.html') ? name : `${name}.html`)).then((body) => {
      res.writeHead(Number(url.searchParams.get('status') ?? 200), { 'content-type': 'text/html; charset=utf-8' }).end(body);
    }, () => res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const pages: AntiBotPages = {
    origin: `http://127.0.0.1:${port}`,
    requests,
    acceptToken: 'solved-token-1',
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  return pages;
}

export interface BlockingProxy {
  /** `http://127.0.0.1:<port>`, for a proxy's `server`. */
  server: string;
  /** Hosts of the requests it answered. */
  hosts: string[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy whose exit address every site has flagged: it answers each proxied GET itself with 403 and the
 * bot manager's block page (forbidden-challenge.html), as a blocked residential exit would be answered.
 */
export async function startBlockingProxy(): Promise<BlockingProxy> {
  const hosts: string[] = [];
  const page = await readFile(path.join(DIR, 'forbidden-challenge.html'));
  const server = createServer((req, res) => {
    hosts.push(req.headers.host ?? 'unknown');
    res.writeHead(403, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  server.on('connect', (_req, socket) => socket.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    hosts,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
