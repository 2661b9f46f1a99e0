import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SelectorRepair, type TaskHealingRecord } from '../../layers/healing/records.js';
import { Errors } from '../../kernel/errors.js';
import { healingStoreOf, saveSelectorVersion } from '../../layers/healing/index.js';
import { ErrorBody, Task } from './schemas.js';

const tags = ['tasks'];
const Id = Task.properties.id;
const RepairParams = Type.Object({ id: Id, repairId: Id });
const RepairList = Type.Object({
  repairs: Type.Array(SelectorRepair, { description: 'newest first' }),
  fingerprints: Type.Array(Type.Object({ actionIndex: Type.Integer(), selector: Type.String(), savedAt: Type.String() }), { description: 'the actions whose element is fingerprinted' }),
});
const notFound = { 404: ErrorBody };

/**
 * A task's selector repairs (README "Healing"): list them, accept one (the task is snapshotted and the action gets the
 * new selector: a new version) or reject one (it is not proposed again for the same page state). Only a proposed
 * repair can be accepted or rejected.
 */
export async function repairRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { tasks } = app.services.storage;
  const healing = healingStoreOf(app.services.storage);

  async function existing(taskId: string): Promise<TaskHealingRecord> {
    if (!(await tasks.get(taskId))) throw Errors.TASK_NOT_FOUND({ id: taskId });
    return (await healing?.get(taskId)) ?? { id: taskId, fingerprints: [], repairs: [] };
  }

  async function decide(taskId: string, repairId: string, action: 'accepted' | 'rejected') {
    const record = await existing(taskId);
    const repair = record.repairs.find((r) => r.id === repairId);
    if (!repair || !healing) throw Errors.NOT_FOUND({}, { details: `Repair ${repairId} of task ${taskId} not found: GET /api/tasks/${taskId}/repairs lists them` });
    const verb = action === 'accepted' ? 'accepted' : 'rejected';
    if (repair.status !== 'proposed') throw Errors.REPAIR_NOT_PROPOSED({ id: repairId, action: verb, reason: `it is ${repair.status}` });
    const decided = { ...repair, status: action, decidedAt: new Date().toISOString() } as typeof repair;
    if (action === 'accepted') {
      const saved = await saveSelectorVersion(tasks, taskId, repair.actionIndex, repair.oldSelector, repair.newSelector);
      if ('refused' in saved) throw Errors.REPAIR_NOT_PROPOSED({ id: repairId, action: verb, reason: saved.refused });
      decided.taskVersion = saved.taskVersion;
    }
    await healing.update(taskId, (current) => ({
      ...current,
      repairs: current.repairs.map((r) => (r.id === repairId ? decided : r)),
      // Accepted, the new selector's element is the action's reference from now on.
      fingerprints: action === 'accepted' && repair.fingerprint
        ? [...current.fingerprints.filter((f) => f.actionIndex !== repair.actionIndex), {
          actionIndex: repair.actionIndex, selector: repair.newSelector, fingerprint: repair.fingerprint,
          taskVersion: decided.taskVersion ?? '', savedAt: decided.decidedAt!,
        }].sort((a, b) => a.actionIndex - b.actionIndex)
        : current.fingerprints,
    }));
    return decided;
  }

  app.get('/tasks/:id/repairs', {
    config: { auth: 'authenticated', access: 'read', errors: [Errors.TASK_NOT_FOUND] },
    schema: {
      tags, operationId: 'listTaskRepairs', summary: 'The selector repairs runs made for a task (proposed, applied, accepted, rejected)',
      params: Type.Object({ id: Id }), response: { 200: RepairList, ...notFound },
    },
  }, async (request) => {
    const record = await existing(request.params.id);
    return { repairs: record.repairs, fingerprints: record.fingerprints.map(({ actionIndex, selector, savedAt }) => ({ actionIndex, selector, savedAt })) };
  });

  for (const [path, action, summary] of [
    ['accept', 'accepted', 'Accept a proposed repair: the task gets the new selector as a new version'],
    ['reject', 'rejected', 'Reject a proposed repair: runs do not make it again for the same page'],
  ] as const) {
    app.post(`/tasks/:id/repairs/:repairId/${path}`, {
      config: { auth: 'authenticated', access: 'write', errors: [Errors.TASK_NOT_FOUND, Errors.NOT_FOUND, Errors.REPAIR_NOT_PROPOSED] },
      schema: {
        tags, operationId: `${path}TaskRepair`, summary, params: RepairParams,
        response: { 200: SelectorRepair, ...notFound, 409: ErrorBody },
      },
    }, async (request) => decide(request.params.id, request.params.repairId, action));
  }
}
