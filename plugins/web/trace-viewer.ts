import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Errors } from '../../kernel/errors.js';
import { REVALIDATE } from './headers.js';
import { lazySendFile } from './lazy-send-file.js';

/** Where the viewer is served: `/trace-viewer/?trace=/api/data/captures/<executionId>_<n>.zip` opens a run's trace. */
export const TRACE_VIEWER_PATH = '/trace-viewer/';

/**
 * The Playwright trace viewer that ships inside Playwright (playwright-core/lib/vite/traceViewer), or undefined
 * when Playwright is not installed. Found from Playwright's own package, whose dependency it is.
 */
export function findTraceViewer(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const fromPlaywright = createRequire(require.resolve('playwright/package.json'));
    const dir = path.join(path.dirname(fromPlaywright.resolve('playwright-core/package.json')), 'lib', 'vite', 'traceViewer');
    return existsSync(path.join(dir, 'index.html')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The viewer's policy: its own scripts and a service worker (which reads the trace from this origin and serves
 * the recorded snapshots), snapshots framed by the viewer, the inline styles of recorded pages. Nothing reaches
 * beyond this origin.
 */
const VIEWER_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/**
 * `GET /trace-viewer/*`: the trace viewer from this service's own origin, only to a signed-in caller (the files are
 * Playwright's, but the viewer is part of the dashboard). It loads the trace named by `?trace=` from the same
 * origin, with the caller's session, so a trace never leaves the machine.
 */
export function registerTraceViewer(app: FastifyInstance, root = findTraceViewer()): void {
  const sendFile = root ? lazySendFile(app.log, { root, cacheControl: false, dotfiles: 'deny', index: false }) : undefined;
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!sendFile) {
      throw Errors.NOT_FOUND(undefined, { details: 'The trace viewer ships with Playwright, which is not installed here (npm install playwright)' });
    }
    const [where, search] = request.url.split('?', 2) as [string, string | undefined];
    // The viewer's URLs are relative to its folder.
    if (!where.startsWith(TRACE_VIEWER_PATH)) return reply.redirect(TRACE_VIEWER_PATH + (search === undefined ? '' : `?${search}`));
    const file = (request.params as { '*'?: string })['*'] || 'index.html';
    if (file.split('/').some((part) => part === '' || part.startsWith('.'))) throw Errors.NOT_FOUND(undefined, { details: 'No such file of the trace viewer' });
    void reply
      .header('content-security-policy', VIEWER_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'SAMEORIGIN')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', REVALIDATE);
    return sendFile(reply, file);
  };
  const options = { config: { auth: 'authenticated' as const, access: 'read' as const, errors: [Errors.NOT_FOUND] }, schema: { hide: true } };
  app.get(TRACE_VIEWER_PATH, options, serve); // also `/trace-viewer`, which serve redirects
  app.get(`${TRACE_VIEWER_PATH}*`, options, serve);
}
