// A DevTools protocol client over a plain WebSocket, sending exactly what a test writes (no client library
// in between), for testing what the relay forwards and what it refuses.
import WebSocket from 'ws';

export interface CdpAnswer {
  id: number;
  result?: any;
  error?: { code: number; message: string };
  sessionId?: string;
}

export interface RawCdpClient {
  /** Sends `{ id, method, params, sessionId }` and resolves to the answer with that id. */
  send(method: string, params?: object, sessionId?: string): Promise<CdpAnswer>;
  /** Sends `text` as it is; resolves to the next answer with `id` (default: any answer without a known id). */
  sendText(text: string, id?: number): Promise<CdpAnswer>;
  /** Resolves to the first event named `method` (optionally passing `match`) from now on. */
  waitForEvent(method: string, match?: (params: any) => boolean, timeoutMs?: number): Promise<any>;
  /** An attached page session (flattened): a new target at `url`. */
  openPage(url?: string): Promise<{ targetId: string; sessionId: string }>;
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function connectRawCdp(url: string, headers: Record<string, string> = {}): Promise<RawCdpClient> {
  const socket = new WebSocket(url, { headers, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  // A reset after the handshake (the service closing under load) comes as 'error' then 'close': without a
  // listener the 'error' would be an uncaught exception failing the whole file; 'close' answers what is pending.
  socket.on('error', () => undefined);
  let nextId = 1000;
  const pending = new Map<number, (answer: CdpAnswer) => void>();
  const anyAnswer: Array<(answer: CdpAnswer) => void> = [];
  const eventWaiters: Array<{ method: string; match?: (params: any) => boolean; resolve: (params: any) => void }> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as CdpAnswer & { method?: string; params?: any };
    if (message.method !== undefined) {
      for (const waiter of [...eventWaiters]) {
        if (waiter.method === message.method && (!waiter.match || waiter.match(message.params))) {
          eventWaiters.splice(eventWaiters.indexOf(waiter), 1);
          waiter.resolve(message.params);
        }
      }
      return;
    }
    const resolve = pending.get(message.id);
    if (resolve) {
      pending.delete(message.id);
      resolve(message);
    } else {
      anyAnswer.shift()?.(message);
    }
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // A connection that ends answers what is still pending, so a test fails instead of waiting for ever.
  void closed.then(() => {
    const gone = (id: number): CdpAnswer => ({ id, error: { code: -1, message: 'the connection closed' } });
    for (const [id, resolve] of pending) resolve(gone(id));
    pending.clear();
    for (const resolve of anyAnswer.splice(0)) resolve(gone(0));
  });
  const answerTo = (id: number) => new Promise<CdpAnswer>((resolve) => pending.set(id, resolve));

  const client: RawCdpClient = {
    send(method, params = {}, sessionId) {
      const id = nextId++;
      if (socket.readyState !== WebSocket.OPEN) return Promise.resolve({ id, error: { code: -1, message: 'the connection closed' } });
      const answer = answerTo(id);
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      return answer;
    },
    sendText(text, id) {
      const answer = id === undefined ? new Promise<CdpAnswer>((resolve) => anyAnswer.push(resolve)) : answerTo(id);
      socket.send(text);
      return answer;
    },
    waitForEvent(method, match, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${method} event within ${timeoutMs} ms`)), timeoutMs);
        eventWaiters.push({ method, match, resolve: (params) => { clearTimeout(timer); resolve(params); } });
      });
    },
    async openPage(url = 'about:blank') {
      const created = await client.send('Target.createTarget', { url });
      if (created.error) throw new Error(created.error.message);
      const { targetId } = created.result;
      const attached = await client.send('Target.attachToTarget', { targetId, flatten: true });
      if (attached.error) throw new Error(attached.error.message);
      return { targetId, sessionId: attached.result.sessionId as string };
    },
    closed,
    async close() {
      socket.close();
      await closed;
    },
  };
  return client;
}
