// Task files over HTTP. Decision: an upload is the raw body of `PUT /api/tasks/{id}/files/{name}` (any media type,
// read as a stream and stopped at the size limit), not multipart: one file per request, named by its URL, which
// `curl -T` and the dashboard's fetch send alike. The media type is the name's, whatever the request said.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Readable } from 'node:stream';
import { Errors } from '../../kernel/errors.js';
import { TASK_FILE_NAME, type TaskFileLimits, type TaskFiles } from '../../layers/task-files/index.js';
import type { TaskService } from './service.js';
import { ErrorBody, TaskParams } from './schemas.js';

const tags = ['tasks'];
const oneTask = { auth: 'authenticated', errors: [Errors.TASK_NOT_FOUND, Errors.NOT_FOUND] } as const;

export const TaskFile = Type.Object({
  name: Type.String(),
  size: Type.Integer({ description: 'bytes' }),
  contentType: Type.String({ description: "from the name's extension" }),
  modified: Type.String({ description: 'ISO 8601: when it was uploaded' }),
});
const FileParams = Type.Object({
  id: TaskParams.properties.id,
  name: Type.String({ pattern: TASK_FILE_NAME.source, maxLength: 128, description: 'letters, digits, ., _ and -; not starting with .' }),
});
const FileList = Type.Object({ files: Type.Array(TaskFile), maxBytes: Type.Integer(), maxFiles: Type.Integer() });
const binary = Type.Unsafe<Readable>({ type: 'string', format: 'binary' });

export interface FileRouteOptions {
  files: TaskFiles;
  limits: TaskFileLimits;
  tasks: TaskService;
}

const missing = (name: string) => Errors.NOT_FOUND(undefined, { details: `Task file ${name} not found` });

export async function taskFileRoutes(scope: FastifyInstance, options: FileRouteOptions): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { files, limits, tasks } = options;
  // The body is the file: any media type, handed over unread (put() streams it and stops at the limit).
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, anyMediaType: true };
  });

  app.get('/tasks/:id/files', {
    config: { ...oneTask, access: 'read' },
    schema: { tags, operationId: 'listTaskFiles', summary: "The task's files (for upload actions), by name, with the limits", params: TaskParams, response: { 200: FileList, 404: ErrorBody } },
  }, async (request) => {
    await tasks.get(request.params.id); // TASK_NOT_FOUND
    return { files: await files.list(request.params.id), ...limits };
  });

  app.put('/tasks/:id/files/:name', {
    config: { ...oneTask, access: 'write' },
    bodyLimit: Number.MAX_SAFE_INTEGER, // the size limit is put()'s, counted as the body streams in
    schema: {
      tags, operationId: 'putTaskFile', summary: 'Upload a task file: the request body is its bytes (replaces a file of that name)',
      params: FileParams, response: { 200: TaskFile, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody },
    },
  }, async (request) => {
    const { id, name } = request.params;
    await tasks.get(id);
    const announced = Number(request.headers['content-length']);
    if (announced > limits.maxBytes) throw Errors.PAYLOAD_TOO_LARGE({ limit: limits.maxBytes });
    const body = request.body as Readable | undefined;
    return files.put(id, name, body ?? new Uint8Array(0), limits);
  });

  app.get('/tasks/:id/files/:name', {
    config: { ...oneTask, access: 'read' },
    schema: {
      tags, operationId: 'getTaskFile', summary: 'The bytes of a task file', params: FileParams,
      response: { 200: { description: 'the file', content: { 'application/octet-stream': { schema: binary } } }, 404: ErrorBody },
    },
  }, async (request, reply) => {
    const { id, name } = request.params;
    await tasks.get(id);
    const found = await files.read(id, name);
    if (!found) throw missing(name);
    return reply.header('content-type', found.file.contentType).header('content-length', found.file.size)
      .header('content-disposition', `attachment; filename="${name}"`).header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-cache').send(found.stream);
  });

  app.delete('/tasks/:id/files/:name', {
    config: { ...oneTask, access: 'write' },
    schema: { tags, operationId: 'deleteTaskFile', summary: 'Delete a task file', params: FileParams, response: { 200: Type.Object({ success: Type.Boolean() }), 404: ErrorBody } },
  }, async (request) => {
    const { id, name } = request.params;
    await tasks.get(id);
    if (!(await files.remove(id, name))) throw missing(name);
    return { success: true };
  });
}
