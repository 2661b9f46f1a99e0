import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
/** What an incoming id may look like to be kept: a short token that cannot break a log line or a header. */
const SANE_ID = /^[A-Za-z0-9._:=+/-]{1,128}$/;

/** Fastify's `genReqId`: the caller's `X-Request-Id` when it is a sane token, else a fresh UUID. */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** The request whose work is running; `open` until its answer is sent. */
interface RequestContext {
  id: string;
  open: boolean;
}

const current = new AsyncLocalStorage<RequestContext>();
const scopes = new WeakMap<FastifyRequest, { context: RequestContext; scope: AsyncResource }>();
/** Set on Fastify's request loggers, which bind `reqId` themselves (inherited by their children). */
const BINDS_REQUEST_ID = Symbol('taskloom.bindsRequestId');

/**
 * The id of the request whose work is running now (including a run it waits for), until its answer is sent;
 * undefined outside any request. Timers a request armed (a schedule it saved) outlive it without its id.
 */
export function currentRequestId(): string | undefined {
  const context = current.getStore();
  return context?.open ? context.id : undefined;
}

/** True for a logger that already writes `reqId` (a request logger or one of its children). */
export function bindsRequestId(logger: object): boolean {
  return (logger as Record<symbol, unknown>)[BINDS_REQUEST_ID] === true;
}

/**
 * Echoes the id in `X-Request-Id` and makes it the current request id for everything the request does,
 * so log lines written through any logger carry it (kernel/logger.ts). The id is entered once more after
 * the body is read: the stream's events come from another async context (as in @fastify/request-context).
 */
async function requestId(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    if (request.log !== app.log) (request.log as unknown as Record<symbol, unknown>)[BINDS_REQUEST_ID] = true;
    const context = { id: request.id, open: true };
    current.run(context, () => {
      const scope = new AsyncResource('taskloom-request');
      scopes.set(request, { context, scope });
      scope.runInAsyncScope(done);
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const entry = scopes.get(request);
    if (entry) entry.scope.runInAsyncScope(done);
    else done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const entry = scopes.get(request);
    if (entry) entry.context.open = false;
    done();
  });
}

export default fp(requestId, { name: 'taskloom-request-id' });
