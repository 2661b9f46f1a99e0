// The machinery the AI stand-ins share: a real HTTP server on 127.0.0.1 that records every request and
// answers as told. Each stand-in (openai.ts, anthropic.ts, ollama.ts) supplies its wire protocol's shapes.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatBehaviour, RecordedChat } from '../../testing/ai.contract.js';

// What the contract suite asks of a stand-in (testing/ai.contract.ts): a 401 quotes the key, as some products
// do, and `garbage` echoes the credential, so redaction is tested.
export type { ChatBehaviour, RecordedChat } from '../../testing/ai.contract.js';

/** One wire protocol's shapes. */
export interface WireProtocol {
  /** Path prefix of the base URL handed to the client, e.g. `/v1`. */
  basePath: string;
  /** The path (below any prefix) that answers chats, e.g. `/chat/completions`. */
  endpoint: string;
  keyOf(headers: IncomingHttpHeaders): string | undefined;
  /** A request the real product would refuse for its headers (no key, no version): status and body. */
  refuse?(headers: IncomingHttpHeaders): { status: number; body: unknown } | undefined;
  success(text: string, model: unknown): unknown;
  error(status: number, message: string): unknown;
  /** Valid JSON that is not this protocol's answer. */
  malformed(): unknown;
}

export interface ChatStandIn {
  /** Base URL to hand the client (origin plus `basePath`). */
  url: string;
  origin: string;
  requests: RecordedChat[];
  /** The next requests take these, one each, in order; then `fallback` applies. */
  answer(...behaviours: ChatBehaviour[]): void;
  /** Every request carrying `key` is answered so, before the queue is looked at. */
  forKey(key: string, behaviour: ChatBehaviour): void;
  /** What a request gets when nothing else says; default `{ text: 'ok' }`. */
  fallback: ChatBehaviour;
  reset(): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
}

const MESSAGES: Record<number, string> = {
  400: 'Invalid request: unknown model',
  403: 'This key may not use this model',
  404: 'model not found',
  429: 'Rate limit reached for requests',
  500: 'The server had an error while processing your request',
  503: 'The engine is currently overloaded',
};

export async function startChatStandIn(protocol: WireProtocol): Promise<ChatStandIn> {
  const queue: ChatBehaviour[] = [];
  const byKey = new Map<string, ChatBehaviour>();
  const hanging = new Set<ServerResponse>();

  const standIn: ChatStandIn = {
    url: '',
    origin: '',
    requests: [],
    fallback: { text: 'ok' },
    answer: (...behaviours) => { queue.push(...behaviours); },
    forKey: (key, behaviour) => { byKey.set(key, behaviour); },
    reset() {
      queue.length = 0;
      byKey.clear();
      standIn.requests.length = 0;
      standIn.fallback = { text: 'ok' };
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };

  function behave(behaviour: ChatBehaviour, record: RecordedChat, req: IncomingMessage, res: ServerResponse): void {
    if (typeof behaviour === 'object') return send(res, 200, protocol.success(behaviour.text, record.model));
    if (typeof behaviour === 'number') {
      const message = behaviour === 401 ? `Incorrect API key provided: ${record.key ?? '(none)'}` : MESSAGES[behaviour]!;
      return send(res, behaviour, protocol.error(behaviour, message));
    }
    switch (behaviour) {
      case 'garbage':
        return send(res, 200, `<html>oops ${record.key ?? ''} ${req.headers.authorization ?? ''}`);
      case 'malformed':
        return send(res, 200, protocol.malformed());
      case 'empty':
        return send(res, 200, protocol.success('', record.model));
      case 'hang':
        hanging.add(res);
        return;
      case 'drop':
        req.socket.destroy();
        return;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    let body: Record<string, any> = {};
    try {
      body = JSON.parse(text) as Record<string, any>;
    } catch {
      // recorded as empty; the product would refuse it, and the clients never send it
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const record: RecordedChat = {
      method: req.method ?? '', path, headers: req.headers, key: protocol.keyOf(req.headers), model: body.model, body,
    };
    standIn.requests.push(record);
    if (req.method !== 'POST' || !path.endsWith(protocol.endpoint)) return send(res, 404, protocol.error(404, `no route ${path}`));
    const refusal = protocol.refuse?.(req.headers);
    if (refusal) return send(res, refusal.status, refusal.body);
    const keyed = record.key === undefined ? undefined : byKey.get(record.key);
    behave(keyed ?? queue.shift() ?? standIn.fallback, record, req, res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  standIn.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.url = standIn.origin + protocol.basePath;
  return standIn;
}
