import net, { type AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The port it listens on (the same after `down()` and `up()` again). */
  readonly port: number;
  /** Listens (again) on 127.0.0.1; after `blackhole()`, new connections pass again (the swallowed ones stay dead). */
  up(): Promise<void>;
  /** Drops every connection and stops listening: the target is unreachable through it. */
  down(): Promise<void>;
  /**
   * A peer that stops answering: every open connection, and every new one until `up()`, stays open but its bytes
   * are swallowed in both directions, for good (as when a firewall or NAT loses its state: no reset, no answer).
   */
  blackhole(): void;
}

/** A TCP proxy on 127.0.0.1 to `host:port` that a test can cut, black-hole and restore, e.g. between the service and PostgreSQL. */
export function createTcpProxy(host: string, port: number): TcpProxy {
  const sockets = new Set<net.Socket>();
  const swallowed = new WeakSet<net.Socket>();
  let holing = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      if (holing) swallowed.add(socket);
    }
    // Data is forwarded by hand (not pipe) so a connection can be made to swallow it, and an end is not passed on
    // once it does: a black-holed peer sends nothing, not even a FIN.
    const forward = (from: net.Socket, to: net.Socket) => {
      from.on('data', (chunk) => {
        if (!swallowed.has(from) && !to.destroyed) to.write(chunk);
      });
      from.on('end', () => {
        if (!swallowed.has(from)) to.end();
      });
    };
    forward(client, upstream);
    forward(upstream, client);
  });
  let listening = 0;
  return {
    get port() {
      return listening;
    },
    up: () => {
      holing = false;
      if (server.listening) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(listening, '127.0.0.1', () => {
          server.off('error', reject);
          listening = (server.address() as AddressInfo).port;
          resolve();
        });
      });
    },
    down: () => new Promise<void>((resolve) => {
      holing = false;
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    }),
    blackhole() {
      holing = true;
      for (const socket of sockets) swallowed.add(socket);
    },
  };
}
