import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import type { Readable } from 'node:stream';

const POLL_MS = 100;

/** A TCP port of 127.0.0.1 free right now (the OS picks it; the helper binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `host:port` accepts a connection; rejects when `child` exits first or after `timeoutMs`. */
export async function waitForPort(host: string, port: number, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited before listening on ${host}:${port}`);
    if (await accepts(host, port)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`not listening on ${host}:${port} after ${timeoutMs} ms`);
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}

/** Reads the display number Xvfb writes on its `-displayfd 3` pipe once it accepts clients. */
export function readDisplayNumber(child: ChildProcess, timeoutMs: number): Promise<number> {
  const pipe = child.stdio[3] as Readable | null | undefined;
  if (!pipe) return Promise.reject(new Error('Xvfb was started without its display pipe'));
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => finish(new Error(`Xvfb did not report its display within ${timeoutMs} ms`)), timeoutMs);
    const finish = (error?: Error, display?: number) => {
      clearTimeout(timer);
      pipe.removeAllListeners('data');
      child.off('exit', onExit);
      pipe.resume(); // nothing more is read, but the pipe must not fill
      if (error) reject(error);
      else resolve(display!);
    };
    const onExit = () => finish(new Error('Xvfb exited before it served a display'));
    child.once('exit', onExit);
    pipe.setEncoding('utf8');
    pipe.on('data', (chunk: string) => {
      text += chunk;
      const match = /^(\d+)\n/.exec(text);
      if (match) finish(undefined, Number(match[1]));
    });
  });
}
