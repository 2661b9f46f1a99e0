// A local server speaking the part of Baserow's REST API the tablestore provider uses, with Baserow's error bodies.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the next answers go wrong: the HTTP status named, an unreadable 200, no answer at all, or a redirect. */
export type BaserowFailure = '401' | '429' | '500' | 'garbage' | 'hang' | { redirectTo: string };

export interface BaserowRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  authorization: string | undefined;
}

export interface BaserowStandIn {
  url: string;
  token: string;
  databases: { id: number; name: string }[];
  /** Tables by database id. */
  tables: Map<number, { id: number; name: string }[]>;
  /** Rows received, by table id, in order. */
  rows: Map<number, Record<string, unknown>[]>;
  /** Size of every accepted batch request, in order. */
  batches: number[];
  requests: BaserowRequest[];
  /**
   * After `after` more good answers (default 0), answers `times` requests (default: every one until `reset`)
   * with `failure`.
   */
  fail(failure: BaserowFailure, options?: { times?: number; after?: number }): void;
  /** Clears failures and what was recorded. */
  reset(): void;
  close(): Promise<void>;
}

export const BASEROW_MAX_BATCH = 200;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

export async function startBaserowStandIn(options: { token?: string; host?: string } = {}): Promise<BaserowStandIn> {
  const token = options.token ?? 'bsr-stand-in-token-7f3a9c';
  const state = {
    failure: undefined as BaserowFailure | undefined,
    remaining: Infinity,
    goodBefore: 0,
    hanging: new Set<ServerResponse>(),
  };
  const databases = [{ id: 11, name: 'Sales' }, { id: 12, name: 'Ops' }];
  const tables = new Map([[11, [{ id: 101, name: 'Orders' }, { id: 102, name: 'Leads' }]], [12, [{ id: 201, name: 'Incidents' }]]]);
  // Baserow lists every application; only `database` items hold tables.
  const applications = () => [
    ...databases.map((d, order) => ({
      id: d.id, name: d.name, order, type: 'database', workspace: { id: 1, name: 'Acme' },
      tables: (tables.get(d.id) ?? []).map((t) => ({ ...t, database_id: d.id })),
    })),
    { id: 13, name: 'Portal', order: 9, type: 'builder', workspace: { id: 1, name: 'Acme' } },
  ];

  const standIn: BaserowStandIn = {
    url: '',
    token,
    databases,
    tables,
    rows: new Map(),
    batches: [],
    requests: [],
    fail(failure, options = {}) {
      state.failure = failure;
      state.remaining = options.times ?? Infinity;
      state.goodBefore = options.after ?? 0;
    },
    reset() {
      state.failure = undefined;
      standIn.rows.clear();
      standIn.batches.length = 0;
      standIn.requests.length = 0;
    },
    async close() {
      for (const res of state.hanging) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };

  function failWith(failure: BaserowFailure, req: IncomingMessage, res: ServerResponse): void {
    if (typeof failure === 'object') return void res.writeHead(302, { location: failure.redirectTo }).end();
    switch (failure) {
      case '401':
        return json(res, 401, { error: 'ERROR_INVALID_ACCESS_TOKEN', detail: 'Access token is expired or invalid.' });
      case '429':
        return json(res, 429, { detail: 'Request was throttled. Expected available in 1 second.' }, { 'retry-after': '1' });
      case '500':
        return void res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Server Error (500)</h1>');
      case 'garbage':
        // Echoes the credential, as a misconfigured proxy might: the client must not repeat it.
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(`<html>oops ${req.headers.authorization}`);
      case 'hang':
        state.hanging.add(res);
        return;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    standIn.requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    if (state.failure !== undefined && state.goodBefore > 0) state.goodBefore -= 1;
    else if (state.failure !== undefined && state.remaining > 0) {
      state.remaining -= 1;
      const failure = state.failure;
      if (state.remaining === 0) state.failure = undefined;
      return failWith(failure, req, res);
    }
    if (req.headers.authorization !== `Token ${token}`) {
      return json(res, 401, { error: 'ERROR_INVALID_ACCESS_TOKEN', detail: 'Access token is expired or invalid.' });
    }
    const url = new URL(req.url ?? '/', 'http://stand-in');
    let match: RegExpMatchArray | null;
    if (req.method === 'GET' && url.pathname === '/api/applications/') return json(res, 200, applications());
    if (req.method === 'GET' && (match = url.pathname.match(/^\/api\/database\/tables\/database\/(\d+)\/$/))) {
      const list = tables.get(Number(match[1]));
      if (!list) return json(res, 404, { error: 'ERROR_APPLICATION_DOES_NOT_EXIST', detail: 'The requested application does not exist.' });
      return json(res, 200, list.map((t, order) => ({ ...t, order, database_id: Number(match![1]) })));
    }
    if (req.method === 'POST' && (match = url.pathname.match(/^\/api\/database\/rows\/table\/(\d+)\/batch\/$/))) {
      return batch(Number(match[1]), url, body, res);
    }
    json(res, 404, { error: 'URL_NOT_FOUND', detail: `Page not found: ${url.pathname}` });
  }

  function batch(tableId: number, url: URL, body: string, res: ServerResponse): void {
    if (![...tables.values()].flat().some((t) => t.id === tableId)) {
      return json(res, 404, { error: 'ERROR_TABLE_DOES_NOT_EXIST', detail: `The table ${tableId} does not exist.` });
    }
    let items: unknown;
    try {
      items = (JSON.parse(body) as { items?: unknown }).items;
    } catch {
      return json(res, 400, { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: 'JSON parse error' });
    }
    if (!Array.isArray(items)) {
      return json(res, 400, { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { items: [{ error: 'This field is required.', code: 'required' }] } });
    }
    if (items.length > BASEROW_MAX_BATCH) {
      return json(res, 400, {
        error: 'ERROR_REQUEST_BODY_VALIDATION',
        detail: { items: [{ error: `Ensure this field has no more than ${BASEROW_MAX_BATCH} elements.`, code: 'max_length' }] },
      });
    }
    if (url.searchParams.get('user_field_names') !== 'true') {
      return json(res, 400, { error: 'ERROR_NO_SUCH_FIELD', detail: 'Field names need user_field_names=true here.' });
    }
    const stored = standIn.rows.get(tableId) ?? [];
    const created = (items as Record<string, unknown>[]).map((row, i) => ({ id: stored.length + i + 1, order: '1.0', ...row }));
    standIn.rows.set(tableId, [...stored, ...(items as Record<string, unknown>[])]);
    standIn.batches.push(items.length);
    json(res, 200, { items: created });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  const host = options.host ?? '127.0.0.1';
  server.listen(0, host);
  await once(server, 'listening');
  standIn.url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return standIn;
}
