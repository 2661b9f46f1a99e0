import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import { IMMUTABLE, REVALIDATE, securityHeaders } from './headers.js';
import { lazySendFile } from './lazy-send-file.js';
import { notBuiltPage } from './not-built.js';
import { registerTraceViewer } from './trace-viewer.js';

/** web/dist next to the sources (tsx) or next to the compiled dist/ (npm start). */
const CANDIDATES = ['../../web/dist', '../../../web/dist'].map((p) => fileURLToPath(new URL(p, import.meta.url)));

export function findDistDir(): string {
  return CANDIDATES.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? CANDIDATES[0]!;
}

export interface WebOptions {
  /** The built dashboard; defaults to web/dist of this checkout. */
  distDir?: string;
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** A file under `root` for this URL path, or undefined (no traversal, no dotfiles, files only). */
function fileFor(root: string, urlPath: string): string | undefined {
  const relative = path.posix.normalize(`/${urlPath}`).slice(1);
  if (relative === '' || relative.split('/').some((part) => part.startsWith('.'))) return undefined;
  const full = path.join(root, relative);
  if (!full.startsWith(root + path.sep)) return undefined;
  try {
    return statSync(full).isFile() ? relative : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves the built dashboard at `/`: hashed assets cached for a year, index.html revalidated, every other
 * non-API GET answered with index.html (the app routes in the browser). Unknown `/api/...` paths keep the
 * JSON 404. The files are public; the API they call is what is protected.
 */
export function createWebPlugin(options: WebOptions = {}) {
  return async function web(app: FastifyInstance): Promise<void> {
    app.defaultAuthPolicy = 'public';
    const root = path.resolve(options.distDir ?? findDistDir());
    const built = existsSync(path.join(root, 'index.html'));
    // @fastify/static loads with the first file asked for.
    const sendFile = lazySendFile(app.log, { root, cacheControl: false, dotfiles: 'deny', index: false });
    if (!built) app.log.warn({ root }, 'the dashboard is not built: run npm run build:web');

    const serve = async (request: FastifyRequest, reply: FastifyReply, urlPath: string) => {
      const url = request.url.split('?')[0]!;
      // Unknown API paths keep the JSON 404 of the not-found handler (the OpenAPI document already tells
      // anyone which routes exist, so answering 404 rather than 401 reveals nothing).
      if (isApi(url)) return reply.callNotFound();
      securityHeaders(request, reply);
      if (!built) {
        return reply.status(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(notBuiltPage(root));
      }
      const file = fileFor(root, urlPath);
      if (file && file !== 'index.html') {
        return sendFile(reply.header('cache-control', file.startsWith('assets/') ? IMMUTABLE : REVALIDATE), file);
      }
      // A missing asset must not turn into HTML a browser would try to run.
      if (/^assets\//.test(path.posix.normalize(urlPath))) return reply.callNotFound();
      return sendFile(reply.header('cache-control', REVALIDATE), 'index.html');
    };

    registerTraceViewer(app);
    const config = { auth: 'public' as const };
    const schema = { hide: true };
    app.get('/', { config, schema }, (request, reply) => serve(request, reply, ''));
    app.get('/*', { config, schema }, (request, reply) => serve(request, reply, (request.params as { '*': string })['*']));
  };
}

export const webPlugin = definePlugin({ name: 'web', plugin: createWebPlugin() });
