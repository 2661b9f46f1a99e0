import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Readable } from 'node:stream';
import { Errors } from '../../kernel/errors.js';
import { CONTENT_TYPES } from './capture-names.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import type { CaptureService } from './capture-service.js';
import { withTasks } from './capture-tasks.js';
import type { CookieService } from './cookie-service.js';
import {
  Capture, CaptureParams, CaptureQuery, Cleared, CookieList, DomainParams, ErrorBody, Success,
} from './schemas.js';

const config = { auth: 'authenticated' } as const;
const captureConfig = { ...config, errors: [Errors.NOT_FOUND] };
const captureTags = ['data'];
const invalid = { 400: ErrorBody };
const notFound = { 404: ErrorBody };

const binary = Type.Unsafe<Readable>({ type: 'string', format: 'binary' });
/** Documents the file's media types; a stream is sent as is, never serialised. */
const CaptureFile = {
  description: 'the file',
  content: Object.fromEntries([...Object.values(CONTENT_TYPES), '*/*'].map((type) => [type, { schema: binary }])) as Record<string, { schema: typeof binary }>,
};

const missing = (name: string) => Errors.NOT_FOUND(undefined, { details: `Capture ${name} not found` });

export interface DataRouteOptions {
  captures: CaptureService;
  cookies: CookieService;
  executions: ExecutionStore;
}

/** Captures and cookies under the plugin's prefix (`/api/data`). */
export async function dataRoutes(scope: FastifyInstance, options: DataRouteOptions): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { captures, cookies, executions } = options;

  app.get('/captures', {
    config: { ...config, access: 'read' },
    schema: {
      tags: captureTags, operationId: 'listCaptures', summary: 'Screenshots, recordings and downloads, newest first', querystring: CaptureQuery,
      response: { 200: Type.Array(Capture), ...invalid },
    },
  }, async (request) => withTasks(await captures.list({ runId: request.query.runId }), executions));

  app.get('/screenshots', {
    config: { ...config, access: 'read' },
    schema: {
      tags: captureTags, operationId: 'listScreenshots', summary: 'Screenshots only, newest first', querystring: CaptureQuery,
      response: { 200: Type.Array(Capture), ...invalid },
    },
  }, async (request) => withTasks(await captures.list({ runId: request.query.runId, type: 'screenshot' }), executions));

  app.get('/captures/:name', {
    config: { ...captureConfig, access: 'read' },
    schema: {
      tags: captureTags, operationId: 'getCapture', summary: 'The capture file (image/png, image/jpeg, video/webm, or a download as its media type)', params: CaptureParams,
      response: { 200: CaptureFile, ...invalid, ...notFound },
    },
  }, async (request, reply) => {
    const { name } = request.params;
    const file = await captures.open(name);
    if (!file) throw missing(name);
    return reply
      .header('content-type', file.contentType)
      .header('content-length', file.size)
      // A download goes back as a file to save under the site's name (made safe: it needs no quoting).
      .header('content-disposition', file.fileName ? `attachment; filename="${file.fileName}"` : `inline; filename="${name}"`)
      .header('cache-control', 'private, no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  });

  app.delete('/captures/:name', {
    config: { ...captureConfig, access: 'write' },
    schema: {
      tags: captureTags, operationId: 'deleteCapture', summary: 'Delete one capture', params: CaptureParams, response: { 200: Success, ...invalid, ...notFound },
    },
  }, async (request) => {
    if (!(await captures.remove(request.params.name))) throw missing(request.params.name);
    return { success: true };
  });

  app.post('/clear-screenshots', {
    config: { ...config, access: 'write' },
    schema: { tags: captureTags, operationId: 'clearScreenshots', summary: 'Delete every screenshot (recordings stay)', response: { 200: Cleared } },
  }, async () => ({ success: true, deleted: await captures.clearScreenshots() }));

  app.get('/cookies', {
    config: { ...config, access: 'read' },
    schema: { tags: ['cookies'], operationId: 'listCookies', summary: 'The browser cookies runs keep, values masked', response: { 200: CookieList } },
  }, async () => ({ cookies: await cookies.list() }));

  app.delete('/cookies', {
    config: { ...config, access: 'write' },
    schema: { tags: ['cookies'], operationId: 'clearCookies', summary: 'Delete every stored browser cookie', response: { 200: Cleared } },
  }, async () => ({ success: true, deleted: await cookies.clear() }));

  app.delete('/cookies/:domain', {
    config: { ...config, access: 'write' },
    schema: {
      tags: ['cookies'],
      operationId: 'clearDomainCookies',
      summary: 'Delete the cookies of one domain (a leading dot is ignored; subdomains keep theirs)',
      params: DomainParams,
      response: { 200: Cleared, ...invalid },
    },
  }, async (request) => ({ success: true, deleted: await cookies.clearDomain(request.params.domain) }));
}
