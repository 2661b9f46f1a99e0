import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Errors } from '../../kernel/errors.js';
import { pinScheduleZones } from '../../layers/schedule-zones/schedule-zones.js';
import { parseIfMatch, taskEtag } from './etag.js';
import { createTaskFiles, type TaskFileLimits } from '../../layers/task-files/index.js';
import { taskFileRoutes } from './file-routes.js';
import { mappingProblems } from '../../layers/field-mapping/mapping-problems.js';
import { mappingScript } from '../../layers/field-mapping/mapping-script.js';
import { repairRoutes } from './repair-routes.js';
import { createTaskService } from './service.js';
import type { FullTask } from './task-record.js';
import {
  ErrorBody, ExtractScript, ExtractScriptBody, IfMatchHeaders, SaveQuery, Success, TaggedTask, TaskBody, TaskList, TaskParams, TaskPatchBody, TaskSummary, Touched, VersionParams,
} from './schemas.js';

const tags = ['tasks'];
const authenticated = { auth: 'authenticated' } as const;
const oneTask = { ...authenticated, errors: [Errors.TASK_NOT_FOUND] };
/** Writes that honour If-Match (412 TASK_CHANGED on a stale tag). */
const guardedTask = { ...authenticated, errors: [Errors.TASK_NOT_FOUND, Errors.TASK_CHANGED] };
const notFound = { 404: ErrorBody };
const changed = { 412: ErrorBody };
const invalid = { 400: ErrorBody };

export async function taskRoutes(scope: FastifyInstance, options: { limits: TaskFileLimits }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  /** A single task answered carries its ETag, for a later If-Match. */
  const tagged = <T extends FullTask>(reply: FastifyReply, task: T): T => {
    void reply.header('etag', taskEtag(task));
    return task;
  };
  const ifMatch = (request: FastifyRequest) => parseIfMatch(request.headers['if-match']);
  const tasks = createTaskService(app.services.storage.tasks);
  const files = createTaskFiles(app.services.blob);
  const { settings } = app.services.storage;
  /**
   * A schedule saved without a time zone gets this instance's zone pinned now, unless one is pinned for the same
   * timing (layers/schedule-zones/schedule-zones.ts). On failure the schedules' sync pins it within 30 s.
   */
  const pinZone = async (task: FullTask): Promise<FullTask> => {
    if (!task.schedule) return task;
    await pinScheduleZones(settings, [{ taskId: task.id, schedule: task.schedule }])
      .catch((error: unknown) => app.log.warn({ err: error, taskId: task.id }, 'the zone of the task\'s schedule could not be pinned yet'));
    return task;
  };

  app.get('/tasks', {
    config: { ...authenticated, access: 'read' },
    schema: { tags, operationId: 'listTasks', summary: 'Every task, without version history, newest first', response: { 200: Type.Array(TaskSummary) } },
  }, async (_request, reply) => reply.type('application/json; charset=utf-8').send((await tasks.listJson()) as never));

  app.get('/tasks/list', {
    config: { ...authenticated, access: 'read' },
    schema: { tags, operationId: 'listTaskEntries', summary: 'A light list of tasks for the dashboard, newest first', response: { 200: TaskList } },
  }, async () => ({ tasks: await tasks.entries() }));

  app.get('/tasks/:id', {
    config: { ...oneTask, access: 'read' },
    schema: { tags, operationId: 'getTask', summary: 'One task with its version history', params: TaskParams, response: { 200: TaggedTask, ...notFound } },
  }, async (request, reply) => tagged(reply, await tasks.get(request.params.id)));

  app.post('/tasks', {
    config: { ...authenticated, access: 'write', errors: [Errors.TASK_CHANGED] },
    schema: {
      tags,
      operationId: 'saveTask',
      summary: 'Create a task, or overwrite the one with `id` (`?version=true` snapshots it first)',
      querystring: SaveQuery,
      headers: IfMatchHeaders,
      body: TaskBody,
      response: { 200: TaggedTask, ...invalid, ...changed },
    },
  }, async (request, reply) => tagged(reply, await pinZone(await tasks.save(request.body, {
    snapshot: request.query.version === true, ifMatch: ifMatch(request),
  }))));

  app.patch('/tasks/:id', {
    config: { ...guardedTask, access: 'write' },
    schema: {
      tags,
      operationId: 'patchTask',
      summary: 'Change some fields (null removes an optional one); snapshots the task first',
      params: TaskParams,
      headers: IfMatchHeaders,
      body: TaskPatchBody,
      response: { 200: TaggedTask, ...invalid, ...notFound, ...changed },
    },
  }, async (request, reply) => tagged(reply, await pinZone(await tasks.patch(request.params.id, request.body, ifMatch(request)))));

  app.delete('/tasks/:id', {
    config: { ...guardedTask, access: 'write' },
    schema: { tags, operationId: 'deleteTask', summary: 'Delete a task (its files too)', params: TaskParams, headers: IfMatchHeaders, response: { 200: Success, ...notFound, ...changed } },
  }, async (request) => {
    await tasks.remove(request.params.id, ifMatch(request));
    // Its fingerprints and repairs go with it (a failure leaves a record no task reads: harmless).
    await app.services.storage.healing?.delete(request.params.id).catch(() => false);
    await files.removeAll(request.params.id); // and its files (README "Task files")
    return { success: true };
  });

  app.post('/tasks/:id/touch', {
    config: { ...oneTask, access: 'write' },
    schema: { tags, operationId: 'touchTask', summary: 'Set updatedAt to now', params: TaskParams, response: { 200: Touched, ...notFound } },
  }, async (request) => ({ success: true, updatedAt: await tasks.touch(request.params.id) }));

  app.post('/tasks/:id/versions/:versionId/restore', {
    config: { ...authenticated, access: 'write', errors: [Errors.TASK_NOT_FOUND, Errors.NOT_FOUND] },
    schema: {
      tags,
      operationId: 'restoreTaskVersion',
      summary: 'Snapshot the task, then restore the configuration of one of its versions',
      params: VersionParams,
      response: { 200: TaggedTask, ...notFound },
    },
  }, async (request, reply) => tagged(reply, await pinZone(await tasks.restore(request.params.id, request.params.versionId))));

  app.post('/tasks/extract/script', {
    config: { ...authenticated, access: 'write' },
    schema: {
      tags,
      operationId: 'extractScript',
      summary: 'The extraction script equivalent to a field mapping (to edit it as a script)',
      body: ExtractScriptBody,
      response: { 200: ExtractScript, ...invalid },
    },
  }, async (request) => {
    const problems = await mappingProblems(request.body.extract);
    if (problems.length > 0) throw Errors.VALIDATION_ERROR({ message: problems.join('; ') });
    return { script: mappingScript(request.body.extract) };
  });

  await app.register(repairRoutes);
  await app.register(taskFileRoutes, { files, limits: options.limits, tasks }); // a scope of its own: its bodies are files
}
