import net, { type AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The port it listens on (the same after `down()` and `up()` again). */
  readonly port: number;
  /** Listens (again) on 127.0.0.1. */
  up(): Promise<void>;
  /** Drops every connection and stops listening: the target is unreachable through it. */
  down(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 to `host:port` that a test can cut and restore, e.g. between the service and PostgreSQL. */
export function createTcpProxy(host: string, port: number): TcpProxy {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  let listening = 0;
  return {
    get port() {
      return listening;
    },
    up: () => new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listening, '127.0.0.1', () => {
        server.off('error', reject);
        listening = (server.address() as AddressInfo).port;
        resolve();
      });
    }),
    down: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    }),
  };
}
