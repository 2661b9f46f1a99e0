// A pass-through HTTP proxy on 127.0.0.1 in front of the service, so a test can act at an exact point of a CLI's
// conversation (before a given request is forwarded). Streams both ways, server-sent events included.
import { once } from 'node:events';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InterceptingProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

/**
 * Forwards every request to `target` once `before(method, path)` has settled; when it settles to a number, the
 * connection is cut that many ms later (a network failure in the middle of a streamed answer).
 */
export async function startInterceptingProxy(
  target: string, before: (method: string, path: string) => Promise<number | void> | number | void,
): Promise<InterceptingProxy> {
  const { hostname, port } = new URL(target);
  const server = createServer((req, res) => {
    Promise.resolve(before(req.method ?? 'GET', req.url ?? '/')).then((cutAfterMs) => {
      const upstream = forward({ hostname, port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy()); // the client left (an event stream it stopped reading)
      req.pipe(upstream);
      if (typeof cutAfterMs === 'number') setTimeout(() => res.destroy(), cutAfterMs);
    }, () => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
