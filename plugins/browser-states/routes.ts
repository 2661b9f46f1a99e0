import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import type { BrowserStates } from '../../layers/browser-states/browser-states.js';
import type { BrowserSessions } from '../headful/decorators.js';
import { BrowserStateSummary, Deleted, ErrorBody, SaveBody, StateList, StateParams } from './schemas.js';

const tags = ['browser-states'];
// Scopes (issue 24): listing and reading need `read`; saving and deleting need `write`.
const config = { auth: 'authenticated' } as const;
const { BROWSER_STATE_NOT_FOUND, NOT_FOUND } = Errors;

export interface BrowserStateRouteOptions {
  states: BrowserStates;
  sessions: BrowserSessions;
}

/** `/api/browser-states`: summaries only; no answer ever holds a cookie value or a stored item. */
export async function browserStateRoutes(scope: FastifyInstance, options: BrowserStateRouteOptions): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { states, sessions } = options;

  app.get('/', {
    config: { ...config, access: 'read' },
    schema: { tags, operationId: 'listBrowserStates', summary: 'Every named browser state: name, origins, cookie count, size, times (never its contents)', response: { 200: StateList, 401: ErrorBody } },
  }, async () => ({ states: await states.list() }));

  app.get('/:name', {
    config: { ...config, access: 'read', errors: [BROWSER_STATE_NOT_FOUND] },
    schema: { tags, operationId: 'getBrowserState', summary: 'One named browser state\'s summary (never its contents)', params: StateParams, response: { 200: BrowserStateSummary, 401: ErrorBody, 404: ErrorBody } },
  }, async (request) => states.get(request.params.name));

  app.post('/', {
    // NOT_FOUND: no such session is open on this instance.
    config: { ...config, access: 'write', errors: [NOT_FOUND] },
    schema: {
      tags,
      operationId: 'saveBrowserState',
      summary: 'Save the cookies and local storage of a live browser session\'s window (e.g. after a person logged in) under a name; replaces a state of that name',
      body: SaveBody,
      response: { 201: BrowserStateSummary, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
    },
  }, async (request, reply) => {
    const { name, fromSession } = request.body;
    const session = sessions.get(fromSession);
    const summary = await states.save(name, await session.storageState(), `session:${session.id}`);
    request.log.info({ browserState: name, cookieCount: summary.cookieCount, origins: summary.origins.length }, 'browser state saved');
    return reply.code(201).send(summary);
  });

  app.delete('/:name', {
    config: { ...config, access: 'write', errors: [BROWSER_STATE_NOT_FOUND] },
    schema: { tags, operationId: 'deleteBrowserState', summary: 'Delete a named browser state', params: StateParams, response: { 200: Deleted, 401: ErrorBody, 404: ErrorBody } },
  }, async (request) => {
    if (!(await states.delete(request.params.name))) throw BROWSER_STATE_NOT_FOUND({ name: request.params.name });
    return { success: true as const };
  });
}
