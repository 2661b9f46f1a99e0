import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import { armSchedules } from './schedule-arming.js';
import {
  ErrorBody, ExportFile, ExportQuery, ImportAnswer, ImportQuery, TaskBundle,
} from './schemas.js';
import type { PortabilityService } from './service.js';
import { bundleFromProductExport, isProductExport, type ConversionReport } from './replaced-product/tasks.js';

const authenticated = { auth: 'authenticated' } as const;
/** A bundle carries every task with up to 100 versions each: far beyond the API's usual 5 MiB. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * Under `/api`. The static `export` segments win over the `:id` routes of the tasks and executions plugins,
 * whatever the registration order (so a task whose id is literally `export` is reached only through the list).
 */
export async function portabilityRoutes(scope: FastifyInstance, options: { service: PortabilityService }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { service } = options;

  app.get('/executions/export', {
    config: { ...authenticated, access: 'read' },
    schema: {
      tags: ['executions'],
      operationId: 'exportExecutions',
      summary: 'Stream every matching execution, newest first, as NDJSON (default), CSV or an Avro container file',
      querystring: ExportQuery,
      response: { 200: ExportFile, 400: ErrorBody },
    },
  }, async (request, reply) => {
    const file = await service.exportExecutions(request.query);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  });

  app.get('/tasks/export', {
    config: { ...authenticated, access: 'read' },
    schema: {
      tags: ['tasks'],
      operationId: 'exportTasks',
      summary: 'Every task with its versions and schedule, as a portable bundle (JSON, formatVersion 1)',
      response: { 200: TaskBundle },
    },
  }, async (_request, reply) => {
    const { bundle, filename } = await service.exportTasks();
    return reply
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(bundle);
  });

  /** The conversion reports of an import whose body was the replaced product's export. */
  const converted = new WeakMap<object, ConversionReport[]>();
  app.post('/tasks/import', {
    config: { ...authenticated, access: 'write', errors: [Errors.IMPORT_CONFLICT, Errors.IMPORT_UNMAPPED] },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      tags: ['tasks'],
      operationId: 'importTasks',
      summary: 'Import a bundle from /api/tasks/export, or the replaced product\'s task export (a JSON array of its tasks), all or nothing; enabled schedules are handed to the scheduler',
      querystring: ImportQuery,
      body: TaskBundle,
      response: { 200: ImportAnswer, 400: ErrorBody, 409: ErrorBody, 413: ErrorBody, 422: ErrorBody },
    },
    // The product's export is converted before the body is checked: the bundle made from it is checked as any other.
    preValidation: async (request) => {
      if (!isProductExport(request.body)) return;
      const { bundle, reports } = bundleFromProductExport(request.body);
      request.body = bundle;
      converted.set(request, reports);
    },
  }, async (request) => {
    const { written, ...outcome } = await service.importTasks(request.body, request.query.onConflict);
    const reports = converted.get(request);
    return { success: true, ...outcome, ...(await armSchedules(scope, request, written)), ...(reports ? { converted: reports } : {}) };
  });
}
