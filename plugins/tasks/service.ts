import { Errors } from '../../kernel/errors.js';
import type { TaskRecord } from '../../kernel/contracts/records.js';
import type { TaskStore } from '../../kernel/contracts/storage.js';
import type { TaskInput, TaskPatch } from './schemas.js';
import { checkIfMatch } from './etag.js';
import { expectProblem } from '../../layers/run-intelligence/expectations.js';
import { extractionProblems, type ExtractingTask } from '../../layers/field-mapping/task-rules.js';
import {
  SERVER_FIELDS, checkTaskUrl, configOf, historyWith, now, randomId, sameConfig, tidy, withoutVersions,
  type FullTask, type TaskListEntry, type TaskSummary,
} from './task-record.js';

// ISO timestamps order as plain strings; localeCompare would cost more than the rest of the request.
const newestFirst = (a: { updatedAt: string }, b: { updatedAt: string }) =>
  a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0;

/** `next`, or `undefined` (the store keeps the task untouched) when it configures nothing new. */
const unlessSame = (current: TaskRecord, next: TaskRecord): TaskRecord | undefined =>
  sameConfig(current, next) ? undefined : next;

/** A task's `expect` that validates as a shape but cannot be used (a schema Ajv cannot compile): 400 on save. */
function checkExpect(expect: TaskInput['expect'] | null | undefined): void {
  const problem = expectProblem(expect);
  if (problem) throw Errors.VALIDATION_ERROR({ message: problem });
}

/**
 * Runs `change` only when the task still matches `ifMatch` (parsed If-Match; undefined: always), inside the
 * store's atomic update, so that a write racing another cannot slip between the check and the change.
 */
function guarded(id: string, ifMatch: string[] | undefined, change: (current: TaskRecord) => TaskRecord | undefined) {
  let refusal: unknown;
  const update = (current: TaskRecord): TaskRecord | undefined => {
    try {
      checkIfMatch(id, ifMatch, current);
    } catch (error) {
      refusal = error;
      return undefined;
    }
    return change(current);
  };
  /** Throws the 412 the check decided on, after the store answered. */
  const settle = () => {
    if (refusal) throw refusal;
  };
  return { update, settle };
}

/** A task whose mapping or mode http cannot run as configured (layers/field-mapping/task-rules.ts): 400 on save. */
async function checkExtraction(task: ExtractingTask): Promise<void> {
  const problems = await extractionProblems(task);
  if (problems.length > 0) throw Errors.VALIDATION_ERROR({ message: problems.join('; ') });
}

/** Fields of a patch that the extraction rules read: only a patch touching one is checked (against the merged task). */
const EXTRACTION_FIELDS = ['mode', 'actions', 'extract', 'extractionScript'];

/** Task logic without HTTP: every change to a stored task is one atomic `update`. */
export function createTaskService(store: TaskStore) {
  /** The stored task, or TASK_NOT_FOUND when `update` found nothing. */
  const found = (task: TaskRecord | undefined, id: string): FullTask => {
    if (!task) throw Errors.TASK_NOT_FOUND({ id });
    return { ...task, versions: task.versions ?? [] };
  };

  let cachedList: { revision: string; json: string } | undefined;

  return {
    async get(id: string): Promise<FullTask> {
      return found(await store.get(id), id);
    },

    async list(): Promise<TaskSummary[]> {
      return (await store.list()).sort(newestFirst).map(withoutVersions);
    },

    /**
     * The list as JSON text. Stores that report a revision let it be reused until a task changes:
     * copying and serialising every task on each request is what made this the slowest read.
     */
    async listJson(): Promise<string> {
      const revision = await store.revision?.();
      if (revision !== undefined && cachedList?.revision === revision) return cachedList.json;
      const json = JSON.stringify(await this.list());
      if (revision !== undefined) cachedList = { revision, json };
      return json;
    },

    async entries(): Promise<TaskListEntry[]> {
      return (await store.list()).sort(newestFirst).map((task) => {
        const entry: TaskListEntry = {
          id: task.id, name: task.name, url: task.url, mode: task.mode,
          updatedAt: task.updatedAt, createdAt: task.createdAt, actionCount: task.actions?.length ?? 0,
        };
        if (task.description) entry.description = task.description;
        if (task.schedule) entry.schedule = task.schedule;
        return entry;
      });
    },

    /** Creates, or overwrites the task with `body.id` (keeping its createdAt and history); an unchanged one stays as stored. */
    async save(body: TaskInput, options: { snapshot: boolean; ifMatch?: string[] }): Promise<FullTask> {
      checkTaskUrl(body.url);
      checkExpect(body.expect);
      await checkExtraction(body);
      const config = configOf(body);
      const at = now();
      if (body.id !== undefined) {
        const check = guarded(body.id, options.ifMatch, (current) => unlessSame(current, tidy({
          ...config,
          id: current.id,
          createdAt: current.createdAt,
          updatedAt: at,
          versions: options.snapshot ? historyWith(current, at) : current.versions ?? [],
        })));
        const overwritten = await store.update(body.id, check.update);
        check.settle();
        if (overwritten) return found(overwritten, body.id);
        // If-Match names a state of a task that is gone: creating it anew would lose what deleted it.
        checkIfMatch(body.id, options.ifMatch, undefined);
      }
      const created = tidy({ ...config, id: body.id ?? randomId('task_'), createdAt: at, updatedAt: at, versions: [] });
      return found(await store.put(created), created.id);
    },

    /** Snapshots the task, then applies the fields of `patch`; null removes a field. A patch that changes nothing writes nothing. */
    async patch(id: string, patch: TaskPatch, ifMatch?: string[]): Promise<FullTask> {
      if (typeof patch.url === 'string') checkTaskUrl(patch.url);
      checkExpect(patch.expect);
      if (EXTRACTION_FIELDS.some((key) => (patch as Record<string, unknown>)[key] !== undefined)) {
        const merged: Record<string, unknown> = { ...found(await store.get(id), id) };
        for (const key of EXTRACTION_FIELDS) {
          const value = (patch as Record<string, unknown>)[key];
          if (value === null) delete merged[key];
          else if (value !== undefined) merged[key] = value;
        }
        await checkExtraction(merged);
      }
      const at = now();
      const check = guarded(id, ifMatch, (current) => {
        const next: TaskRecord = { ...current, updatedAt: at, versions: historyWith(current, at) };
        for (const [key, value] of Object.entries(patch)) {
          if (SERVER_FIELDS.includes(key) || value === undefined) continue;
          if (value === null) delete next[key];
          else next[key] = value;
        }
        return unlessSame(current, tidy(next));
      });
      const patched = await store.update(id, check.update);
      check.settle();
      return found(patched, id);
    },

    async touch(id: string): Promise<string> {
      const at = now();
      const touched = await store.update(id, (current) => ({ ...current, updatedAt: at }));
      if (!touched) throw Errors.TASK_NOT_FOUND({ id });
      return touched.updatedAt;
    },

    /** With `ifMatch`, the task is read and checked first (the store has no conditional delete: a change in between is lost). */
    async remove(id: string, ifMatch?: string[]): Promise<void> {
      if (ifMatch) checkIfMatch(id, ifMatch, found(await store.get(id), id));
      if (!(await store.delete(id))) throw Errors.TASK_NOT_FOUND({ id });
    },

    /** Snapshots the task, then puts back the configuration of version `versionId`. */
    async restore(id: string, versionId: string): Promise<FullTask> {
      let versionMissing = false;
      const at = now();
      const restored = await store.update(id, (current) => {
        const version = current.versions?.find((v) => v.id === versionId);
        if (!version) {
          versionMissing = true;
          return undefined;
        }
        // The contract's `Omit<TaskRecord, 'versions'>` loses the named fields; the snapshot has them.
        const { versions: _ignored, ...snapshot } = version.snapshot as TaskRecord;
        return unlessSame(current, tidy({
          ...snapshot,
          id: current.id,
          createdAt: current.createdAt,
          updatedAt: at,
          versions: historyWith(current, at),
        }));
      });
      if (restored && versionMissing) {
        throw Errors.NOT_FOUND({}, { details: `Version ${versionId} of task ${id} not found: GET /api/tasks/${id} lists its versions` });
      }
      return found(restored, id);
    },
  };
}

export type TaskService = ReturnType<typeof createTaskService>;
