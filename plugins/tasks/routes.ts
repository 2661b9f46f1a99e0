import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Errors } from '../../kernel/errors.js';
import { pinScheduleZones } from '../../kernel/schedule-zones.js';
import { createTaskService } from './service.js';
import type { FullTask } from './task-record.js';
import {
  ErrorBody, SaveQuery, Success, Task, TaskBody, TaskList, TaskParams, TaskPatchBody, TaskSummary, Touched, VersionParams,
} from './schemas.js';

const tags = ['tasks'];
const authenticated = { auth: 'authenticated' } as const;
const oneTask = { ...authenticated, errors: [Errors.TASK_NOT_FOUND] };
const notFound = { 404: ErrorBody };
const invalid = { 400: ErrorBody };

export async function taskRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tasks = createTaskService(app.services.storage.tasks);
  const { settings } = app.services.storage;
  /**
   * A schedule saved without a time zone gets this instance's zone pinned now, unless one is pinned for the same
   * timing (kernel/schedule-zones.ts). On failure the schedules' sync pins it within 30 s.
   */
  const pinZone = async (task: FullTask): Promise<FullTask> => {
    if (!task.schedule) return task;
    await pinScheduleZones(settings, [{ taskId: task.id, schedule: task.schedule }])
      .catch((error: unknown) => app.log.warn({ err: error, taskId: task.id }, 'the zone of the task\'s schedule could not be pinned yet'));
    return task;
  };

  app.get('/tasks', {
    config: authenticated,
    schema: { tags, operationId: 'listTasks', summary: 'Every task, without version history, newest first', response: { 200: Type.Array(TaskSummary) } },
  }, async (_request, reply) => reply.type('application/json; charset=utf-8').send((await tasks.listJson()) as never));

  app.get('/tasks/list', {
    config: authenticated,
    schema: { tags, operationId: 'listTaskEntries', summary: 'A light list of tasks for the dashboard, newest first', response: { 200: TaskList } },
  }, async () => ({ tasks: await tasks.entries() }));

  app.get('/tasks/:id', {
    config: oneTask,
    schema: { tags, operationId: 'getTask', summary: 'One task with its version history', params: TaskParams, response: { 200: Task, ...notFound } },
  }, async (request) => tasks.get(request.params.id));

  app.post('/tasks', {
    config: authenticated,
    schema: {
      tags,
      operationId: 'saveTask',
      summary: 'Create a task, or overwrite the one with `id` (`?version=true` snapshots it first)',
      querystring: SaveQuery,
      body: TaskBody,
      response: { 200: Task, ...invalid },
    },
  }, async (request) => pinZone(await tasks.save(request.body, { snapshot: request.query.version === true })));

  app.patch('/tasks/:id', {
    config: oneTask,
    schema: {
      tags,
      operationId: 'patchTask',
      summary: 'Change some fields (null removes an optional one); snapshots the task first',
      params: TaskParams,
      body: TaskPatchBody,
      response: { 200: Task, ...invalid, ...notFound },
    },
  }, async (request) => pinZone(await tasks.patch(request.params.id, request.body)));

  app.delete('/tasks/:id', {
    config: oneTask,
    schema: { tags, operationId: 'deleteTask', summary: 'Delete a task', params: TaskParams, response: { 200: Success, ...notFound } },
  }, async (request) => {
    await tasks.remove(request.params.id);
    return { success: true };
  });

  app.post('/tasks/:id/touch', {
    config: oneTask,
    schema: { tags, operationId: 'touchTask', summary: 'Set updatedAt to now', params: TaskParams, response: { 200: Touched, ...notFound } },
  }, async (request) => ({ success: true, updatedAt: await tasks.touch(request.params.id) }));

  app.post('/tasks/:id/versions/:versionId/restore', {
    config: { ...authenticated, errors: [Errors.TASK_NOT_FOUND, Errors.NOT_FOUND] },
    schema: {
      tags,
      operationId: 'restoreTaskVersion',
      summary: 'Snapshot the task, then restore the configuration of one of its versions',
      params: VersionParams,
      response: { 200: Task, ...notFound },
    },
  }, async (request) => pinZone(await tasks.restore(request.params.id, request.params.versionId)));
}
