import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import {
  DescribeAnswer, ErrorBody, ScheduleBody, ScheduleList, SetAnswer, StatusAll, StatusAnswer, Success, TaskParams,
  type ScheduleInput,
} from './schemas.js';
import type { ScheduleService } from './service.js';

const tags = ['schedules'];
const authenticated = { auth: 'authenticated' } as const;
const ofTask = { ...authenticated, errors: [Errors.TASK_NOT_FOUND] };

/**
 * A body that fails its schema is a schedule problem (400 INVALID_SCHEDULE, or `valid: false` from describe),
 * judged after the task is found; other parts (the path) keep the usual VALIDATION_ERROR.
 */
function bodyProblem(request: FastifyRequest): { body: ScheduleInput; invalid?: string } {
  const error = request.validationError as (Error & { validationContext?: string }) | undefined;
  if (!error) return { body: request.body as ScheduleInput };
  if (error.validationContext !== 'body') throw error;
  return { body: {}, invalid: error.message };
}

export async function scheduleRoutes(scope: FastifyInstance, options: { service: ScheduleService }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { service } = options;

  app.get('/', {
    config: { ...authenticated, access: 'read' },
    schema: { tags, operationId: 'listSchedules', summary: 'Every task that has a schedule, enabled or not, with its next fire', response: { 200: ScheduleList } },
  }, async () => ({ schedules: await service.list() }));

  // Registered before `/:taskId/status`; the router prefers this static path (a task named "status" still works).
  app.get('/status/all', {
    config: { ...authenticated, access: 'read' },
    schema: { tags, operationId: 'getSchedulerStatus', summary: 'Whether the scheduler runs, and every scheduled task with its next fire (ISO 8601)', response: { 200: StatusAll } },
  }, async () => service.statusAll());

  app.post('/:taskId', {
    config: { ...authenticated, access: 'write', errors: [Errors.TASK_NOT_FOUND, Errors.INVALID_SCHEDULE] },
    attachValidation: true,
    schema: {
      tags,
      operationId: 'setSchedule',
      summary: 'Set (and by default enable) the schedule of a task: frequency fields or a five-field cron',
      params: TaskParams,
      body: ScheduleBody,
      response: { 200: SetAnswer, 400: ErrorBody, 404: ErrorBody },
    },
  }, async (request) => {
    const { body, invalid } = bodyProblem(request);
    return service.set(request.params.taskId, body, invalid);
  });

  app.delete('/:taskId', {
    config: { ...ofTask, access: 'write' },
    schema: { tags, operationId: 'disableSchedule', summary: 'Disable the schedule (kept, with enabled false)', params: TaskParams, response: { 200: Success, 404: ErrorBody } },
  }, async (request) => {
    await service.disable(request.params.taskId);
    return { success: true };
  });

  app.get('/:taskId/status', {
    config: { ...ofTask, access: 'read' },
    schema: {
      tags,
      operationId: 'getScheduleStatus',
      summary: 'The stored schedule, its resolved cron, a description, whether it is valid, and its next fire',
      params: TaskParams,
      response: { 200: StatusAnswer, 404: ErrorBody },
    },
  }, async (request) => service.status(request.params.taskId));

  app.post('/:taskId/describe', {
    config: { ...ofTask, access: 'read' },
    attachValidation: true,
    schema: {
      tags,
      operationId: 'describeSchedule',
      summary: 'Check a schedule without saving it: valid, description, cron and when it would fire next',
      params: TaskParams,
      body: ScheduleBody,
      response: { 200: DescribeAnswer, 404: ErrorBody },
    },
  }, async (request) => {
    const { body, invalid } = bodyProblem(request);
    return service.describe(request.params.taskId, body, invalid);
  });
}
