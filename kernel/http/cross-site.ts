import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import { Errors } from '../errors.js';

/** Methods a browser may send from any page without asking (CORS), and that must change nothing. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function changesState(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Why a browser sent this request from a page of another origin, or undefined when it did not (or when no
 * browser sent it: curl and servers send neither header). Sec-Fetch-Site, which no page can set, wins; `same-site`
 * is refused too, since another port of the same host is the same site. Without it, Origin must be `ownOrigin`.
 */
export function crossSiteReason(headers: IncomingHttpHeaders, ownOrigin: string | undefined): string | undefined {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== '') {
    return site === 'same-origin' || site === 'none' ? undefined : `the browser marked it ${site} (Sec-Fetch-Site)`;
  }
  const origin = headers.origin;
  if (origin === undefined || origin === '') return undefined;
  try {
    if (ownOrigin !== undefined && origin !== 'null' && new URL(origin).origin === ownOrigin) return undefined;
  } catch {
    // not a URL: refused below
  }
  return `it comes from a page of ${origin.slice(0, 100)}`;
}

/** `scheme://host[:port]` as the caller addressed this service, or undefined when the Host header is unusable. */
export function originFrom(protocol: string, host: string): string | undefined {
  if (host === '') return undefined;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

const lastEntry = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value.at(-1) : value)?.split(',').at(-1)?.trim() || undefined;

/** The scheme and Host a raw request (a WebSocket upgrade) addressed, reading X-Forwarded-* as Fastify does with TRUST_PROXY. */
export function addressedAs(req: IncomingMessage, trustProxy: boolean): { protocol: string; host: string } {
  const encrypted = (req.socket as TLSSocket).encrypted === true;
  return {
    protocol: (trustProxy && lastEntry(req.headers['x-forwarded-proto'])) || (encrypted ? 'https' : 'http'),
    host: (trustProxy && lastEntry(req.headers['x-forwarded-host'])) || req.headers.host || '',
  };
}

/**
 * Throws FORBIDDEN for a state-changing request a browser sent from another origin, unless the API key
 * authenticated it: a page can send a session cookie (SameSite=Lax lets other ports of the host send it), or
 * nothing at all where AUTH_DISABLED is set or the route is public (setup, login); it cannot send the key.
 */
export function refuseCrossSite(request: FastifyRequest): void {
  if (!changesState(request.method) || request.principal.kind === 'apiKey') return;
  const reason = crossSiteReason(request.headers, originFrom(request.protocol, request.host));
  if (reason === undefined) return;
  throw Errors.FORBIDDEN({
    hint: `Cross-site request refused: ${reason}. This service takes state-changing requests made with a session cookie, ` +
      'or without credentials, only from its own pages; other callers send the API key (x-api-key header)',
  });
}
