import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import { mappingProblems } from '../../layers/field-mapping/mapping-problems.js';
import { mappingScript } from '../../layers/field-mapping/mapping-script.js';
import { ErrorBody, MappingPickAnswer, MappingPickBody, MappingPreviewAnswer, MappingPreviewBody, SessionParams } from './schemas.js';
import { ROW_PICK_FUNCTION } from './row-pick-script.js';
import type { StudioSession, StudioSessions } from './studio-sessions.js';

/** Runs `expression` in the session's page; its value, or a 502 when the page could not run it. */
async function evaluate(session: StudioSession, expression: string): Promise<unknown> {
  const answer = await session.devtools.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })
    .catch((error: unknown) => ({ exceptionDetails: { text: error instanceof Error ? error.message : String(error) } })) as
    { result?: { value?: unknown }; exceptionDetails?: { text?: string; exception?: { description?: string } } };
  if (answer.exceptionDetails) {
    const reason = answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text ?? 'it threw';
    throw Errors.UPSTREAM_ERROR({ reason: `The page could not run it: ${reason.split('\n')[0]}` });
  }
  return answer.result?.value;
}

/**
 * Picking a field mapping on a studio session's live page (README "Field mapping"):
 * `POST /api/studio/sessions/{id}/mapping/pick` (a row: the rows' selector; a field: its selector inside the row)
 * and `POST /api/studio/sessions/{id}/mapping/preview` (the mapping's data read from the page now).
 */
export async function mappingPickRoutes(scope: FastifyInstance, options: { sessions: StudioSessions }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const found = (id: string) => options.sessions.found(id);

  app.post('/sessions/:id/mapping/pick', {
    config: { auth: 'authenticated', access: 'write', errors: [Errors.NOT_FOUND, Errors.VALIDATION_ERROR, Errors.UPSTREAM_ERROR] },
    schema: {
      tags: ['studio'], operationId: 'pickStudioMapping',
      summary: 'For a field mapping: the rows\' selector from a picked row, or a field\'s selector inside its row from a picked element',
      params: SessionParams, body: MappingPickBody, response: { 200: MappingPickAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 502: ErrorBody },
    },
  }, async (request) => {
    const session = found(request.params.id);
    const { mode, x, y, selector, rows } = request.body;
    if (selector === undefined && (x === undefined || y === undefined)) throw Errors.VALIDATION_ERROR({ message: 'Send x and y (the picked point) or a selector' });
    if (mode === 'field' && !rows) throw Errors.VALIDATION_ERROR({ message: 'mode field needs rows: the mapping\'s list selector' });
    const answer = await evaluate(session, `(${ROW_PICK_FUNCTION})(${JSON.stringify({ mode, x, y, selector, rows })})`) as { problem?: string } | null;
    if (!answer || answer.problem) throw Errors.VALIDATION_ERROR({ message: `Nothing picked: ${answer?.problem ?? 'the page did not answer'}` });
    return answer as never;
  });

  app.post('/sessions/:id/mapping/preview', {
    config: { auth: 'authenticated', access: 'write', errors: [Errors.NOT_FOUND, Errors.VALIDATION_ERROR, Errors.UPSTREAM_ERROR] },
    schema: {
      tags: ['studio'], operationId: 'previewStudioMapping',
      summary: 'Runs a field mapping on the studio session\'s page as it is now: the data a run would give',
      params: SessionParams, body: MappingPreviewBody, response: { 200: MappingPreviewAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 502: ErrorBody },
    },
  }, async (request) => {
    const session = found(request.params.id);
    const problems = await mappingProblems(request.body.extract);
    if (problems.length > 0) throw Errors.VALIDATION_ERROR({ message: problems.join('; ') });
    // The script a browser run of the mapping runs (a function body), so the preview is what the run gives.
    const data = await evaluate(session, `(() => {\n${mappingScript(request.body.extract)}\n})()`);
    return { data: data ?? null };
  });
}
