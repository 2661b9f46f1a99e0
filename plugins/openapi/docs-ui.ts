import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DocumentFunction } from './lazy-document.js';

/** Where the browsable reference lives. */
export const DOCS_PREFIX = '/api/docs';

/** Request headers that shape a file answer (caching, ranges, encodings); nothing else reaches the UI app. */
const FORWARDED = ['accept', 'accept-encoding', 'accept-language', 'host', 'if-match', 'if-modified-since', 'if-none-match',
  'if-range', 'if-unmodified-since', 'range', 'user-agent'];
/** Answer headers that belong to the connection, not to the answer: the service's own reply sets them. */
const NOT_COPIED = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']);
const CALL_HEADER = 'x-taskloom-docs-call';
/** The request's path as it came: inject would normalise it (`..`, `.`), which @fastify/static must see to refuse. */
const URL_HEADER = 'x-taskloom-docs-url';
const NOT_FOUND = Symbol('not found');

/**
 * The browsable reference (@fastify/swagger-ui, which serves its files with @fastify/static), built on the
 * first request under /api/docs instead of at start-up: a small Fastify app of its own, to which the service's
 * routes hand each request (`inject`). Its answer is copied onto the service's reply, so every hook of the
 * service (request ids, host check, headers) applies as before; a path it does not serve meets the service's
 * not-found handler, and an error it raises meets the service's error handler.
 */
export function lazyDocsUi(log: FastifyBaseLogger, document: () => Promise<DocumentFunction>) {
  /** What the UI app's handlers could not answer, by call: the service answers those. */
  const failures = new Map<string, Error | typeof NOT_FOUND>();
  let calls = 0;
  const takeFailure = (call: string) => {
    const failure = failures.get(call);
    failures.delete(call);
    return failure;
  };

  async function build(): Promise<FastifyInstance> {
    const [{ default: Fastify }, { default: fp }, { default: swaggerUi }, swagger] = await Promise.all([
      import('fastify'), import('fastify-plugin'), import('@fastify/swagger-ui'), document(),
    ]);
    const ui = Fastify({
      // The service logs each request; this app only what goes wrong.
      loggerInstance: log.child({ component: 'api-docs' }, { level: 'warn' }),
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
      rewriteUrl: (request) => String(request.headers[URL_HEADER] ?? request.url),
    }) as unknown as FastifyInstance;
    const callOf = (request: FastifyRequest) => String(request.headers[CALL_HEADER]);
    // Set before the UI registers, so its scopes inherit them.
    ui.setNotFoundHandler(async (request, reply) => {
      failures.set(callOf(request), NOT_FOUND);
      return reply.code(404).send();
    });
    ui.setErrorHandler(async (error, request, reply) => {
      failures.set(callOf(request), error instanceof Error ? error : new Error(String(error)));
      return reply.code(500).send();
    });
    // swagger-ui reads the document through `swagger()`, the decorator of the plugin it depends on.
    await ui.register(fp(async (scope: FastifyInstance) => { scope.decorate('swagger', swagger as never); }, { name: '@fastify/swagger' }));
    await ui.register(swaggerUi, { routePrefix: DOCS_PREFIX });
    await ui.ready();
    return ui;
  }

  let built: Promise<FastifyInstance> | undefined;
  const app = () => (built ??= build().catch((error: unknown) => {
    built = undefined; // a later request tries again
    throw error;
  }));

  return async function serveDocs(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const ui = await app();
    const call = String(++calls);
    const url = request.raw.url ?? request.url;
    const headers: Record<string, string> = { [CALL_HEADER]: call, [URL_HEADER]: url };
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await ui.inject({ method: 'GET', url, headers }).catch((error: unknown) => {
      takeFailure(call);
      throw error;
    });
    const failure = takeFailure(call);
    if (failure === NOT_FOUND) {
      reply.callNotFound();
      return reply;
    }
    if (failure) throw failure;
    for (const [name, value] of Object.entries(answer.headers)) {
      if (!NOT_COPIED.has(name) && value !== undefined) void reply.header(name, value);
    }
    void reply.code(answer.statusCode);
    return answer.rawPayload.length > 0 ? reply.send(answer.rawPayload) : reply.send();
  };
}
