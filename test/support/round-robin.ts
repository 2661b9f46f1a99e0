import net from 'node:net';

export interface RoundRobin {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** How many connections went to each target, in the order given. */
  counts(): number[];
  close(): Promise<void>;
}

/** A TCP load balancer on 127.0.0.1: each new connection goes to the next target in turn (no stickiness at all). */
export async function startRoundRobin(targets: string[]): Promise<RoundRobin> {
  const ends = targets.map((target) => new URL(target));
  const counts = ends.map(() => 0);
  const open = new Set<net.Socket>();
  let next = 0;
  const server = net.createServer((client) => {
    const index = next++ % ends.length;
    counts[index]! += 1;
    const upstream = net.connect(Number(ends[index]!.port), ends[index]!.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => { client.destroy(); upstream.destroy(); });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    counts: () => [...counts],
    close: () => new Promise((resolve) => {
      for (const socket of open) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
