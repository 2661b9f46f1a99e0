import net from 'node:net';
import type { Logger } from '../../kernel/contracts/logger.js';

/**
 * Takes a viewer's connection (from noVNC) to another instance's display; resolves to true when it did, false to
 * leave the viewer on this instance's own display.
 */
export type VncRoute = (viewer: net.Socket) => Promise<boolean>;

/** What websockify relays noVNC's viewers to, in place of the VNC server itself. */
export interface VncGateway {
  /** The loopback port websockify connects to. */
  readonly port: number;
  /** Sets where viewers go (another plugin knows which instance holds the browser). */
  route(route: VncRoute): void;
  close(): Promise<void>;
}

/**
 * A loopback TCP gateway between websockify and x11vnc: each viewer is offered to the route first (the browser
 * may live on another instance), else piped to this instance's VNC server. The bytes are VNC's own: its password
 * is checked by whichever x11vnc answers (every instance keeps the same one in the store).
 */
export async function startVncGateway(localVncPort: () => number | undefined, logger: Logger): Promise<VncGateway> {
  let route: VncRoute | undefined;
  const open = new Set<net.Socket>();
  const server = net.createServer((viewer) => {
    open.add(viewer);
    viewer.once('close', () => open.delete(viewer));
    viewer.on('error', () => viewer.destroy());
    void (async () => {
      if (route && (await route(viewer).catch((error: unknown) => {
        logger.warn({ err: error }, 'a VNC viewer could not reach the display of the instance holding the browser; it sees this one\'s');
        return false;
      }))) return;
      const port = localVncPort();
      if (port === undefined || viewer.destroyed) return viewer.destroy();
      const vnc = net.connect(port, '127.0.0.1');
      open.add(vnc);
      vnc.once('close', () => { open.delete(vnc); viewer.destroy(); });
      vnc.on('error', () => vnc.destroy());
      viewer.once('close', () => vnc.destroy());
      viewer.pipe(vnc);
      vnc.pipe(viewer);
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    route: (next) => { route = next; },
    close: () => new Promise((resolve) => {
      for (const socket of open) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
