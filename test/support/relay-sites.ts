// Two local sites for the DevTools relay tests: an "allowed" one on 127.0.0.2 (which the service's outbound
// guard is told to let through) and a loopback one on 127.0.0.1 holding a secret, which must never be reached.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RelaySites {
  /** `http://127.0.0.2:<port>`: `/` (title Allowed, a file input), `/download` (an attachment, report.txt). */
  allowed: string;
  /** `http://127.0.0.1:<port>`: answers LOOPBACK-SECRET to anything. */
  loopback: string;
  /** Requests the loopback site received. */
  loopbackRequests: string[];
  close(): Promise<void>;
}

export const DOWNLOAD_NAME = 'report.txt';
export const DOWNLOAD_TEXT = 'downloaded through the relay';
export const ALLOWED_ADDRESS = '127.0.0.2';

const PAGE = `<!doctype html><title>Allowed</title><p id="hello">allowed page</p>
<input type="file" id="upload"><a id="get" href="/download">get the report</a>`;

export async function startRelaySites(): Promise<RelaySites> {
  const loopbackRequests: string[] = [];
  const allowed = createServer((req, res) => {
    if (req.url === '/download') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-disposition': `attachment; filename="${DOWNLOAD_NAME}"` });
      res.end(DOWNLOAD_TEXT);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  const loopback = createServer((req, res) => {
    loopbackRequests.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('LOOPBACK-SECRET');
  });
  const listen = async (server: Server, host: string) => {
    server.listen(0, host);
    await once(server, 'listening');
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  };
  const origins = { allowed: await listen(allowed, ALLOWED_ADDRESS), loopback: await listen(loopback, '127.0.0.1') };
  return {
    ...origins,
    loopbackRequests,
    async close() {
      for (const server of [allowed, loopback]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}
