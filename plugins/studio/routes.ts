import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import { BrowserStateSummary, ErrorBody, FingerprintsAnswer, SaveStateBody, FingerprintsBody, OpenSessionBody, RecordingAnswer, SessionAnswer, SessionParams, Success } from './schemas.js';
import { healingStoreOf, rememberFingerprint } from '../../layers/healing/index.js';
import { fingerprintsOf } from './element-fingerprints.js';
import type { StudioSessions } from './studio-sessions.js';
import '../browser-states/decorators.js';

/**
 * `POST /api/studio/sessions`, `DELETE /api/studio/sessions/{id}`, `GET /api/studio/sessions/{id}/recording`,
 * `POST /api/studio/sessions/{id}/fingerprints`.
 */
export async function studioRoutes(scope: FastifyInstance, options: { sessions: StudioSessions }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { sessions } = options;
  const found = (id: string) => sessions.found(id);

  app.post('/sessions', {
    config: { auth: 'authenticated', access: 'write', errors: [Errors.INVALID_URL, Errors.UPSTREAM_ERROR] },
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
    config: { auth: 'authenticated', access: 'write', errors: [Errors.NOT_FOUND] },
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
    config: { auth: 'authenticated', access: 'write', errors: [Errors.NOT_FOUND] },
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

  app.post('/sessions/:id/browser-state', {
    config: { auth: 'authenticated', access: 'write', errors: [Errors.NOT_FOUND] },
    schema: {
      tags: ['studio', 'browser-states'], operationId: 'saveStudioBrowserState',
      summary: 'Saves the cookies and local storage of the session\'s page (e.g. after a person logged in there) as a named browser state; replaces one of that name',
      params: SessionParams, body: SaveStateBody, response: { 201: BrowserStateSummary, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 503: ErrorBody },
    },
  }, async (request, reply) => {
    const session = found(request.params.id);
    if (!scope.hasDecorator('browserStates')) {
      throw Errors.STORAGE_UNAVAILABLE({ reason: `the ${scope.services.storage.kind} storage keeps no browser states (storage contract 2.8)` });
    }
    if (!session.storageState) throw Errors.VALIDATION_ERROR({ message: 'This browser engine cannot read a context\'s state (browser contract 1.4)' });
    const summary = await scope.browserStates.save(request.body.name, await session.storageState(), `studio:${session.id}`);
    request.log.info({ browserState: summary.name, cookieCount: summary.cookieCount }, 'browser state saved');
    return reply.code(201).send(summary);
  });

  app.post('/sessions/:id/fingerprints', {
    config: { auth: 'authenticated', access: 'write', errors: [Errors.NOT_FOUND, Errors.TASK_NOT_FOUND] },
    schema: {
      tags: ['studio'], operationId: 'storeStudioFingerprints',
      summary: 'Stores, for healing, the fingerprints of the elements recorded or picked in the session that the task\'s actions use',
      params: SessionParams, body: FingerprintsBody, response: { 200: FingerprintsAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
    },
  }, async (request) => {
    const session = found(request.params.id);
    const { taskId } = request.body;
    const { storage } = scope.services;
    const task = await storage.tasks.get(taskId);
    if (!task) throw Errors.TASK_NOT_FOUND({ id: taskId });
    const store = healingStoreOf(storage);
    if (!store) return { stored: [] };
    // As the runs: only where none is stored for the action and its selector (a run's stays what it was).
    const known = (await store.get(taskId))?.fingerprints ?? [];
    const stored: Array<{ actionIndex: number; selector: string }> = [];
    for (const { actionIndex, selector, fingerprint } of fingerprintsOf(task.actions, session.elements)) {
      if (known.some((f) => f.actionIndex === actionIndex && f.selector === selector)) continue;
      await rememberFingerprint(store, taskId, actionIndex, selector, fingerprint);
      stored.push({ actionIndex, selector });
    }
    return { stored };
  });
}
