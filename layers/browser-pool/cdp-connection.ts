// A bare DevTools-protocol connection to a browser this service launched (its loopback endpoint): the scheme
// guard and dedicated browsers (the headful session) reach the browser's own window through it.
import type { CdpConnection } from '../../kernel/contracts/browser-pool.js';

export type { CdpConnection } from '../../kernel/contracts/browser-pool.js';

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface Incoming {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message?: string };
  sessionId?: string;
}

/** Opens a connection to `endpoint`; each command must answer within `timeoutMs`. */
export async function connectCdp(endpoint: string, timeoutMs: number): Promise<CdpConnection> {
  // ws loads with the first connection (a browser launch), not with the service.
  const { default: WebSocket } = await import('ws');
  // Screenshots travel as base64 in one message: allow large ones.
  const socket = new WebSocket(endpoint, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024, handshakeTimeout: timeoutMs });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', (error) => reject(new Error(`Cannot reach the browser's DevTools endpoint: ${error.message}`)));
  });
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(params: Record<string, unknown>, sessionId?: string) => void>>();
  const failAll = (error: Error) => {
    for (const entry of pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(error);
    }
    pending.clear();
  };
  socket.on('error', () => undefined); // 'close' follows and fails what is pending
  socket.on('close', () => failAll(new Error('The browser closed the DevTools connection')));
  socket.on('message', (data) => {
    let message: Incoming;
    try {
      message = JSON.parse(String(data)) as Incoming;
    } catch {
      return;
    }
    if (message.id !== undefined) {
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      clearTimeout(entry.timer);
      if (message.error) entry.reject(new Error(message.error.message ?? 'DevTools protocol error'));
      else entry.resolve(message.result ?? {});
      return;
    }
    if (message.method) for (const listener of listeners.get(message.method) ?? []) listener(message.params ?? {}, message.sessionId);
  });

  return {
    send<T>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
      if (socket.readyState !== socket.OPEN) return Promise.reject(new Error('The DevTools connection is closed'));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`DevTools command ${method} did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { resolve: (value) => resolve(value as T), reject, timer });
        socket.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
    close() {
      failAll(new Error('The DevTools connection was closed'));
      socket.terminate();
    },
  };
}

/** Opens a connection, runs `fn` and always closes it. */
export async function withCdp<T>(endpoint: string, timeoutMs: number, fn: (cdp: CdpConnection) => Promise<T>): Promise<T> {
  const cdp = await connectCdp(endpoint, timeoutMs);
  try {
    return await fn(cdp);
  } finally {
    cdp.close();
  }
}
