import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createOutboundClient, OutboundRequestError } from '../../kernel/outbound/client.js';
import { createOutboundGuard, OutboundBlockedError } from '../../kernel/outbound/guard.js';
import type { HostLookup } from '../../kernel/outbound/guard.js';

interface TestServer {
  url: string;
  hits: IncomingMessage[];
  server: Server;
}

type Handler = (req: IncomingMessage, res: ServerResponse, base: string) => void;

async function startServer(host: string, handler: Handler): Promise<TestServer> {
  const hits: IncomingMessage[] = [];
  const state = { url: '' };
  const server = createServer((req, res) => {
    hits.push(req);
    req.resume();
    handler(req, res, state.url);
  });
  server.listen(0, host);
  await once(server, 'listening');
  state.url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { url: state.url, hits, server };
}

function stop(s: TestServer): void {
  s.server.closeAllConnections();
  s.server.close();
}

function redirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location }).end();
}

async function blocked(promise: Promise<unknown>): Promise<OutboundBlockedError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  assert.ok(error instanceof OutboundBlockedError, `expected OutboundBlockedError, got ${String(error)}`);
  return error;
}

let main: TestServer; // 127.0.0.1: the one address tests allow
let other: TestServer; // 127.0.0.1 on another port: allowed, but another origin
let secret: TestServer; // 127.0.0.2: must never be reached

before(async () => {
  secret = await startServer('127.0.0.2', (_req, res) => res.end('internal'));
  other = await startServer('127.0.0.1', (req, res) =>
    res.end(JSON.stringify({ authorization: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null })));
  main = await startServer('127.0.0.1', (req, res, base) => {
    const path = req.url ?? '/';
    if (path === '/hello') return res.end('hello');
    if (path === '/json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (path === '/echo') return res.end(JSON.stringify({ method: req.method, authorization: req.headers.authorization ?? null }));
    if (path === '/to-hello') return redirect(res, 302, '/hello');
    if (path === '/to-secret') return redirect(res, 302, `${secret.url}/`);
    if (path === '/to-secret-by-hop') return redirect(res, 301, '/to-secret');
    if (path === '/to-file') return redirect(res, 302, 'file:///etc/passwd');
    if (path === '/to-other') return redirect(res, 307, `${other.url}/`);
    if (path === '/loop') return redirect(res, 302, `${base}/loop`);
    if (path === '/post-303') return redirect(res, 303, '/echo');
    if (path === '/slow') return; // never answers
    res.writeHead(404).end();
  });
});

after(() => {
  for (const s of [main, other, secret]) stop(s);
});

describe('outbound client: private networks', () => {
  test('reaches a local server when private networks are allowed', async (t) => {
    const client = createOutboundClient(createOutboundGuard({ allowPrivateNetworks: true }));
    t.after(() => client.close());
    const response = await client.request(`${main.url}/hello`);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'hello');
    assert.deepEqual(await (await client.request(`${main.url}/json`)).json(), { ok: true });
  });

  test('refuses a local server before connecting when they are not', async (t) => {
    const client = createOutboundClient(createOutboundGuard({ allowPrivateNetworks: false }));
    t.after(() => client.close());
    const before = secret.hits.length;
    const error = await blocked(client.request(`${secret.url}/`));
    assert.match(error.reason, /127\.0\.0\.2 is a loopback address/);
    assert.equal(secret.hits.length, before);
  });
});

describe('outbound client: connect-time pin', () => {
  test('a name that rebinds to loopback after the check is refused at connect time', async (t) => {
    const seen: string[] = [];
    const rebinding: HostLookup = async (host) => {
      seen.push(host);
      // First answer (the URL check) is public; every later one (the connect) is loopback.
      return [{ address: seen.length === 1 ? '93.184.215.14' : '127.0.0.2', family: 4 }];
    };
    const client = createOutboundClient(createOutboundGuard({ allowPrivateNetworks: false, lookup: rebinding }));
    t.after(() => client.close());
    const before = secret.hits.length;
    const port = new URL(secret.url).port;
    const error = await blocked(client.request(`http://rebind.test:${port}/`));
    assert.match(error.reason, /rebind\.test resolves to 127\.0\.0\.2, a loopback address/);
    assert.deepEqual(seen, ['rebind.test', 'rebind.test'], 'checked once at the URL, once at connect');
    assert.equal(secret.hits.length, before, 'the server was never reached');
  });

  test('the connection uses the address the guard resolved', async (t) => {
    const lookup: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];
    const guard = createOutboundGuard({ allowPrivateNetworks: false, lookup, allowAddress: (ip) => ip === '127.0.0.1' });
    const client = createOutboundClient(guard);
    t.after(() => client.close());
    const response = await client.request(`http://pinned.test:${new URL(main.url).port}/hello`);
    assert.equal(await response.text(), 'hello');
  });
});

describe('outbound client: redirects', () => {
  const guard = createOutboundGuard({ allowPrivateNetworks: false, allowAddress: (ip) => ip === '127.0.0.1' });
  const client = createOutboundClient(guard);
  after(() => client.close());

  test('follows an allowed redirect', async () => {
    const response = await client.request(`${main.url}/to-hello`);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'hello');
    assert.equal(response.url, `${main.url}/hello`);
  });

  test('refuses a redirect to a private address at that hop', async () => {
    const before = secret.hits.length;
    const error = await blocked(client.request(`${main.url}/to-secret`));
    assert.match(error.reason, /127\.0\.0\.2/);
    await blocked(client.request(`${main.url}/to-secret-by-hop`));
    assert.equal(secret.hits.length, before);
  });

  test('refuses a redirect to another scheme', async () => {
    assert.match((await blocked(client.request(`${main.url}/to-file`))).reason, /scheme file is not allowed/);
  });

  test('gives up after maxRedirects', async () => {
    const before = main.hits.length;
    const error = await client.request(`${main.url}/loop`, { maxRedirects: 2 }).catch((e: unknown) => e);
    assert.ok(error instanceof OutboundRequestError);
    assert.match(error.reason, /redirected more than 2 times/);
    assert.equal(main.hits.length - before, 3);
    const byDefault = await client.request(`${main.url}/loop`).catch((e: unknown) => e);
    assert.match(String(byDefault), /more than 5 times/);
  });

  test('manual mode returns the redirect itself', async () => {
    const response = await client.request(`${main.url}/to-secret`, { redirect: 'manual' });
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), `${secret.url}/`);
  });

  test('a 303 turns a POST into a GET', async () => {
    const init = { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } };
    const response = await client.request(`${main.url}/post-303`, init);
    assert.equal((await response.json() as { method: string }).method, 'GET');
  });

  test('credentials are not carried to another origin', async () => {
    const headers = { authorization: 'Bearer top', cookie: 'sid=1' };
    const response = await client.request(`${main.url}/to-other`, { headers });
    assert.deepEqual(await response.json(), { authorization: null, cookie: null });
  });
});

describe('outbound client: credentials, timeouts, cancellation', () => {
  const client = createOutboundClient(createOutboundGuard({ allowPrivateNetworks: true }));
  after(() => client.close());

  test('URL userinfo is sent as Basic authorization, not in the URL', async () => {
    const base = new URL(main.url);
    const response = await client.request(`http://user:s%40cret@${base.host}/echo`);
    const { authorization } = await response.json() as { authorization: string };
    assert.equal(authorization, `Basic ${Buffer.from('user:s@cret').toString('base64')}`);
    assert.equal(main.hits.at(-1)?.url, '/echo');
  });

  test('a slow server times out', async () => {
    const started = Date.now();
    const error = await client.request(`${main.url}/slow`, { timeoutMs: 200 }).catch((e: unknown) => e);
    assert.ok(error instanceof OutboundRequestError);
    assert.equal(error.timedOut, true);
    assert.match(error.reason, /did not answer within 200 ms/);
    assert.ok(Date.now() - started < 2000);
  });

  test("the caller's signal cancels", async () => {
    const controller = new AbortController();
    const pending = client.request(`${main.url}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.catch((e: unknown) => e);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'AbortError');
  });
});
