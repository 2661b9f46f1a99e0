// A local server receiving completion webhooks: records each POST and answers as told (2xx, an error status,
// or never, to exercise the 10 s timeout).
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** Epoch ms when the request arrived. */
  at: number;
}

/** `number`: answer with that status; `hang`: read the request and never answer; or a status with headers. */
export type ReceiverBehaviour = number | 'hang' | { status: number; headers: Record<string, string> };

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`; any path is accepted. */
  url: string;
  received: ReceivedWebhook[];
  /** How the next requests are answered (default 200). */
  behave(behaviour: ReceiverBehaviour): void;
  /** The next requests are answered with these, one each, before the behaviour `behave` set. */
  plan(behaviours: ReceiverBehaviour[]): void;
  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  const waiters: Array<() => void> = [];
  let behaviour: ReceiverBehaviour = 200;
  const planned: ReceiverBehaviour[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => { text += chunk.toString(); });
    req.on('end', () => {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() });
      for (const wake of waiters.splice(0)) wake();
      const now = planned.shift() ?? behaviour;
      if (now === 'hang') {
        hanging.add(res);
        return;
      }
      const { status, headers } = typeof now === 'number' ? { status: now, headers: {} } : now;
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ ok: status < 300 }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    behave(next) {
      behaviour = next;
    },
    plan(behaviours) {
      planned.push(...behaviours);
    },
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} webhooks within ${timeoutMs} ms, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => { clearTimeout(timer); resolve(); });
        });
      }
      return received;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
