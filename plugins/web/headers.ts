import type { FastifyReply, FastifyRequest } from 'fastify';

/** Long-lived caching for Vite's content-hashed files; everything else is revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

const HOSTNAME = /^(?:[A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}$|^\[[0-9A-Fa-f:.]+\]$/;

/**
 * The dashboard's Content-Security-Policy: its own scripts, styles and API only; images may be data: URLs
 * (the inspector's snapshot) and blobs (downloads); the noVNC viewer may be framed from the same host on
 * another port (its port is configurable, so any port of this host).
 */
export function contentSecurityPolicy(hostname: string): string {
  const host = HOSTNAME.test(hostname) ? hostname : undefined;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "connect-src 'self'",
    "font-src 'self'",
    host ? `frame-src http://${host}:* https://${host}:*` : "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every dashboard response carries. */
export function securityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  void reply
    .header('content-security-policy', contentSecurityPolicy(request.hostname))
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .header('cross-origin-opener-policy', 'same-origin');
}
