import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import { ErrorBody, HighlightAnswer, HighlightBody } from './schemas.js';
import type { Inspector } from './service.js';

/** `POST /api/inspector/highlight`. */
export async function inspectorRoutes(scope: FastifyInstance, options: { inspector: Inspector }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/highlight', {
    // NOT_FOUND: the session named is not open; UPSTREAM_ERROR: the page would not load or went away.
    config: { auth: 'authenticated', access: 'write', errors: [Errors.INVALID_URL, Errors.NOT_FOUND, Errors.UPSTREAM_ERROR] },
    schema: {
      tags: ['inspector'],
      operationId: 'highlightElements',
      summary: 'Up to five elements matching targetHint (CSS selector, then attributes, then visible text), best first; '
        + 'with task and actionIndex, on the page the task reaches before that action',
      body: HighlightBody,
      response: { 200: HighlightAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 502: ErrorBody },
    },
  }, async (request, reply) => {
    // A replay stops when the caller goes away or the service stops: nobody would read the answer.
    const gone = new AbortController();
    reply.raw.once('close', () => { if (!reply.raw.writableFinished) gone.abort(); });
    return options.inspector.highlight(request.body, AbortSignal.any([gone.signal, scope.services.shutdownSignal]));
  });
}
