import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { Agent, buildConnector, Headers, Response as UndiciResponse } from 'undici';
import type { OutboundClient, OutboundGuard, OutboundRequestInit } from '../contracts/outbound.js';
import { OutboundBlockedError, OutboundRequestError } from '../errors.js';

export type { OutboundClient, OutboundRequestInit } from '../contracts/outbound.js';
export type OutboundResponse = Response;

export { OutboundRequestError } from '../errors.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
const ORIGIN_BOUND_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

type Undici = typeof import('undici');

export function createOutboundClient(guard: OutboundGuard): OutboundClient {
  // undici (some 100 files) loads with the first outbound request, not with the service.
  let loaded: Promise<{ undici: Undici; agent: Agent }> | undefined;
  let closed = false;
  const load = () => loaded ??= import('undici').then((undici) => {
    const agent = new undici.Agent({ connect: createPinnedConnector(undici.buildConnector, guard) });
    if (closed) void agent.close(); // requests after close() fail as they did with an agent made up front
    return { undici, agent };
  });

  async function request(input: string | URL, init: OutboundRequestInit = {}): Promise<OutboundResponse> {
    const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxRedirects = init.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let url = await guard.checkUrl(String(input));
    const { undici: { fetch, Headers }, agent } = await load();
    let method = (init.method ?? 'GET').toUpperCase();
    // The contract speaks the global fetch types; undici's own are the same classes under other declarations.
    let body = (init.body ?? null) as never;
    const headers = new Headers(init.headers as never);

    for (let redirects = 0; ; redirects++) {
      const hop = withoutCredentials(url, headers, Headers);
      let response: UndiciResponse;
      try {
        response = await fetch(hop.url, { method, headers: hop.headers, body, signal, redirect: 'manual', dispatcher: (init.dispatcher ?? agent) as Agent });
      } catch (error) {
        throw explain(error, timeout, `${url.host} did not answer within ${timeoutMs} ms`);
      }
      const location = response.headers.get('location');
      if (init.redirect === 'manual' || !REDIRECTS.has(response.status) || location === null) return response as unknown as Response;
      await response.body?.cancel();
      if (redirects >= maxRedirects) throw new OutboundRequestError(`${url.host} redirected more than ${maxRedirects} times`);

      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new OutboundBlockedError(`${url.host} redirected to an invalid URL`);
      }
      next = await guard.checkUrl(next.href);
      // Same method rewrites as fetch: a 303, or a POST answered 301/302, becomes a GET without a body.
      if ((response.status === 303 && method !== 'HEAD') || ([301, 302].includes(response.status) && method === 'POST')) {
        method = 'GET';
        body = null as never;
        for (const name of BODY_HEADERS) headers.delete(name);
      }
      if (next.origin !== url.origin) for (const name of ORIGIN_BOUND_HEADERS) headers.delete(name);
      url = next;
    }
  }

  const close = async () => {
    closed = true;
    if (loaded) await (await loaded).agent.close();
  };
  return { request, close };
}

/** Resolves, checks every address and hands the socket only checked ones, so a rebinding name cannot slip past. */
function createPinnedConnector(build: typeof buildConnector, guard: OutboundGuard): buildConnector.connector {
  const lookup: LookupFunction = (hostname, options, callback) => {
    guard.resolve(hostname).then(
      (resolved) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const wanted = family === 0 ? resolved : resolved.filter((a) => a.family === family);
        if (wanted.length === 0) {
          return callback(new OutboundBlockedError(`host ${hostname} has no IPv${family} address`), '', 0);
        }
        if (options.all) return callback(null, wanted);
        return callback(null, wanted[0].address, wanted[0].family);
      },
      (error: Error) => callback(error, '', 0),
    );
  };
  const connect = build({ lookup });
  return (options, callback) => {
    // An IP literal never reaches `lookup`, so it is checked here.
    const host = options.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && !guard.checkAddress(host)) {
      callback(new OutboundBlockedError(`address ${host} is not public; set ALLOW_PRIVATE_NETWORKS=true to allow it`), null);
      return;
    }
    connect(options, callback);
  };
}

/** userinfo travels as a Basic Authorization header (fetch refuses URLs that carry it). */
function withoutCredentials(url: URL, headers: Headers, HeadersClass: Undici['Headers']): { url: URL; headers: Headers } {
  if (url.username === '' && url.password === '') return { url, headers };
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  const withAuth = new HeadersClass(headers);
  if (!withAuth.has('authorization')) {
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    withAuth.set('authorization', `Basic ${Buffer.from(pair).toString('base64')}`);
  }
  return { url: bare, headers: withAuth };
}

/** fetch wraps connector errors in "fetch failed"; surface ours and name timeouts. */
function explain(error: unknown, timeout: AbortSignal, timeoutReason: string): unknown {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof OutboundBlockedError) return e;
  }
  if (timeout.aborted) return new OutboundRequestError(timeoutReason, { timedOut: true, cause: error });
  return error;
}
