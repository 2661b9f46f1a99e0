// A local server of pages that take all the memory they can, for the memory-budget tests:
// `/alloc` JavaScript arrays without end; `/dom` an HTML document without end (chunked, no Content-Length),
// whose DOM grows past any limit; `/declared-huge` an image announced as 4 GB (a few bytes sent, then held);
// `/ok` a plain page. Every response is cut when the server closes.
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

export interface HungryPages {
  origin: string;
  close(): Promise<void>;
}

const ROW = '<div class="row"><span>cell text here</span><b>more</b><i>and some more</i></div>\n'.repeat(500);

export async function startHungryPages(): Promise<HungryPages> {
  const sockets = new Set<Socket>();
  let closing = false;
  const server = createServer((req, res) => {
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    switch (new URL(req.url ?? '/', 'http://x').pathname) {
      case '/alloc':
        return html('<title>alloc</title><script>const kept = []; for (;;) kept.push(new Array(1e6).fill(Math.random()));</script>');
      case '/dom':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.write('<title>dom</title>');
        return pump(res);
      case '/declared-huge-page':
        return html('<title>huge image</title><img src="/declared-huge">');
      case '/declared-huge':
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(4 * 1024 ** 3) });
        res.write(Buffer.from([0x89, 0x50, 0x4e, 0x47])); // and then nothing: held until the run ends
        return undefined;
      default:
        return html('<title>ok</title><p id="ok">fine</p>');
    }
  });
  function pump(res: ServerResponse): void {
    while (!closing && !res.destroyed) {
      if (!res.write(ROW)) {
        res.once('drain', () => pump(res));
        return;
      }
    }
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      closing = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
