import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Errors } from '../../kernel/errors.js';
import type { Captures } from '../data/decorators.js';
import { filesZip } from './files-zip.js';
import type { ExecutionService } from './service.js';
import {
  ErrorBody, Execution, ExecutionCount, ResultFile, ExecutionFilter, ExecutionOverview, ExecutionParams, ExecutionQuery, ExecutionSummaries, Success,
} from './schemas.js';

const tags = ['executions'];
const authenticated = { auth: 'authenticated' } as const;
const oneExecution = { ...authenticated, errors: [Errors.EXECUTION_NOT_FOUND] };
const invalid = { 400: ErrorBody };
const notFound = { 404: ErrorBody };

export async function executionRoutes(scope: FastifyInstance, options: { service: ExecutionService; captures: Captures }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { service, captures } = options;

  app.get('/', {
    config: { ...authenticated, access: 'read' },
    schema: {
      tags, operationId: 'listExecutions', summary: 'Execution history with logs and results, newest first', querystring: ExecutionQuery,
      response: { 200: Type.Array(Execution), ...invalid },
    },
  }, async (request) => service.list(request.query));

  app.get('/list', {
    config: { auth: 'apiKey', access: 'read' },
    schema: {
      tags, operationId: 'listExecutionSummaries', summary: 'Summary metadata of executions, newest first (API key only; no logs or results)',
      querystring: ExecutionQuery, response: { 200: ExecutionSummaries, ...invalid },
    },
  }, async (request) => ({ executions: await service.summaries(request.query) }));

  app.get('/count', {
    config: { ...authenticated, access: 'read' },
    schema: {
      tags, operationId: 'countExecutions', summary: 'How many executions match the filters of the list',
      querystring: ExecutionFilter, response: { 200: ExecutionCount, ...invalid },
    },
  }, async (request) => ({ total: await service.count(request.query) }));

  app.get('/overview', {
    config: { ...authenticated, access: 'read' },
    schema: {
      tags, operationId: 'getExecutionOverview', summary: 'Runs of the last 24 hours and 7 days by status, and the newest failures',
      response: { 200: ExecutionOverview },
    },
  }, async () => service.overview());

  app.get('/:id', {
    config: { ...oneExecution, access: 'read' },
    schema: { tags, operationId: 'getExecution', summary: 'One execution with its logs and result', params: ExecutionParams, response: { 200: Execution, ...notFound } },
  }, async (request) => service.get(request.params.id));

  app.get('/:id/result', {
    config: { ...authenticated, access: 'read', errors: [Errors.EXECUTION_NOT_FOUND, Errors.RESULT_NOT_FOUND] },
    schema: {
      tags, operationId: 'getExecutionResult', params: ExecutionParams,
      summary: 'The whole result of an ended execution as JSON (streamed), also one stored apart from its record for its size',
      response: { 200: ResultFile, ...notFound },
    },
  }, async (request, reply) => {
    const opened = await service.result(request.params.id);
    return reply.header('content-type', `${opened.contentType}; charset=utf-8`).header('content-length', opened.size)
      .header('cache-control', 'private, no-cache').send(opened.stream);
  });

  app.get('/:id/files.zip', {
    config: { ...oneExecution, access: 'read' },
    schema: {
      tags, operationId: 'getExecutionFiles', summary: 'Every screenshot, recording and download of the execution as one ZIP (streamed)', params: ExecutionParams,
      response: { 200: { description: 'application/zip', content: { 'application/zip': { schema: Type.Unsafe({ type: 'string', format: 'binary' }) } } }, ...notFound },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    await service.get(id); // EXECUTION_NOT_FOUND
    const zip = await filesZip(captures, id);
    return reply.header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${id.replace(/[^A-Za-z0-9_-]/g, '_')}-files.zip"`)
      .header('cache-control', 'private, no-cache')
      .send(zip);
  });

  app.delete('/:id', {
    config: { ...oneExecution, access: 'write' },
    schema: {
      tags, operationId: 'deleteExecution', summary: 'Delete an execution and its capture files', params: ExecutionParams, response: { 200: Success, ...notFound },
    },
  }, async (request) => {
    await service.remove(request.params.id);
    return { success: true };
  });

  app.post('/clear', {
    config: { ...authenticated, access: 'write' },
    schema: { tags, operationId: 'clearExecutions', summary: 'Delete every execution record and their capture files', response: { 200: Success } },
  }, async () => {
    await service.clear();
    return { success: true };
  });
}
