import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import { ErrorBody, OpenSessionBody, RecordingAnswer, SessionAnswer, SessionParams, Success } from './schemas.js';
import type { StudioSessions } from './studio-sessions.js';

/** `POST /api/studio/sessions`, `DELETE /api/studio/sessions/{id}`, `GET /api/studio/sessions/{id}/recording`. */
export async function studioRoutes(scope: FastifyInstance, options: { sessions: StudioSessions }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { sessions } = options;
  const found = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw Errors.NOT_FOUND({}, { details: `Studio session ${id} is not open` });
    return session;
  };

  app.post('/sessions', {
    config: { auth: 'authenticated', errors: [Errors.INVALID_URL, Errors.UPSTREAM_ERROR] },
    schema: {
      tags: ['studio'], operationId: 'openStudioSession',
      summary: 'Opens a page in a temporary browser context for the authoring studio (live view, point and click, recorder)',
      body: OpenSessionBody, response: { 200: SessionAnswer, 400: ErrorBody, 401: ErrorBody, 502: ErrorBody },
    },
  }, async (request) => {
    const session = await sessions.start(request.body.url, request.body.viewport);
    return { sessionId: session.id, url: session.page.url(), liveUrl: `/api/studio/sessions/${session.id}/live` };
  });

  app.delete('/sessions/:id', {
    config: { auth: 'authenticated', errors: [Errors.NOT_FOUND] },
    schema: {
      tags: ['studio'], operationId: 'closeStudioSession', summary: 'Closes a studio session and its page',
      params: SessionParams, response: { 200: Success, 401: ErrorBody, 404: ErrorBody },
    },
  }, async (request) => {
    found(request.params.id);
    sessions.close(request.params.id);
    return { success: true as const };
  });

  app.get('/sessions/:id/recording', {
    config: { auth: 'authenticated', errors: [Errors.NOT_FOUND] },
    schema: {
      tags: ['studio'], operationId: 'getStudioRecording', summary: 'What the recorder made of the session so far: actions, with their other selectors',
      params: SessionParams, response: { 200: RecordingAnswer, 401: ErrorBody, 404: ErrorBody },
    },
  }, async (request) => {
    const session = found(request.params.id);
    return {
      actions: session.steps.map((step) => step.action),
      variables: Object.fromEntries([...session.variables].map((name) => [name, ''])),
      steps: session.steps.map(({ action, candidates }) => ({ action, candidates })),
    };
  });
}
