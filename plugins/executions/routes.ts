import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Errors } from '../../kernel/errors.js';
import type { ExecutionService } from './service.js';
import {
  ErrorBody, Execution, ExecutionCount, ExecutionFilter, ExecutionOverview, ExecutionParams, ExecutionQuery, ExecutionSummaries, Success,
} from './schemas.js';

const tags = ['executions'];
const authenticated = { auth: 'authenticated' } as const;
const oneExecution = { ...authenticated, errors: [Errors.EXECUTION_NOT_FOUND] };
const invalid = { 400: ErrorBody };
const notFound = { 404: ErrorBody };

export async function executionRoutes(scope: FastifyInstance, options: { service: ExecutionService }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { service } = options;

  app.get('/', {
    config: authenticated,
    schema: {
      tags, operationId: 'listExecutions', summary: 'Execution history with logs and results, newest first', querystring: ExecutionQuery,
      response: { 200: Type.Array(Execution), ...invalid },
    },
  }, async (request) => service.list(request.query));

  app.get('/list', {
    config: { auth: 'apiKey' },
    schema: {
      tags, operationId: 'listExecutionSummaries', summary: 'Summary metadata of executions, newest first (API key only; no logs or results)',
      querystring: ExecutionQuery, response: { 200: ExecutionSummaries, ...invalid },
    },
  }, async (request) => ({ executions: await service.summaries(request.query) }));

  app.get('/count', {
    config: authenticated,
    schema: {
      tags, operationId: 'countExecutions', summary: 'How many executions match the filters of the list',
      querystring: ExecutionFilter, response: { 200: ExecutionCount, ...invalid },
    },
  }, async (request) => ({ total: await service.count(request.query) }));

  app.get('/overview', {
    config: authenticated,
    schema: {
      tags, operationId: 'getExecutionOverview', summary: 'Runs of the last 24 hours and 7 days by status, and the newest failures',
      response: { 200: ExecutionOverview },
    },
  }, async () => service.overview());

  app.get('/:id', {
    config: oneExecution,
    schema: { tags, operationId: 'getExecution', summary: 'One execution with its logs and result', params: ExecutionParams, response: { 200: Execution, ...notFound } },
  }, async (request) => service.get(request.params.id));

  app.delete('/:id', {
    config: oneExecution,
    schema: {
      tags, operationId: 'deleteExecution', summary: 'Delete an execution and its capture files', params: ExecutionParams, response: { 200: Success, ...notFound },
    },
  }, async (request) => {
    await service.remove(request.params.id);
    return { success: true };
  });

  app.post('/clear', {
    config: authenticated,
    schema: { tags, operationId: 'clearExecutions', summary: 'Delete every execution record and their capture files', response: { 200: Success } },
  }, async () => {
    await service.clear();
    return { success: true };
  });
}
