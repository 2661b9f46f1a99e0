import { Type, type Static, type TNull, type TOptional, type TProperties, type TSchema, type TUnion } from 'typebox';
import { Task, TaskListEntry } from '../../kernel/contracts/records.js';

// The task record (kernel/contracts/records.ts) is the one definition; the bodies below are made from it.
export {
  ACTION_TYPES, MAX_ACTIONS, TASK_MODES, Action, Schedule, Task, TaskListEntry, TaskSummary, TaskVersion, type ActionType,
} from '../../kernel/contracts/records.js';

/** The fields the server sets; a client may send them back as it received them: accepted and ignored. */
const SERVER_FIELDS = ['id', 'createdAt', 'updatedAt', 'versions'] as const;
const echoed = { versions: Type.Optional(Type.Unknown()), createdAt: Type.Optional(Type.Unknown()), updatedAt: Type.Optional(Type.Unknown()) };

/** What a client sets: the record without the server's fields, each as the record has it (required or optional). */
const settable = Type.Omit(Task, SERVER_FIELDS).properties;

/** `POST /api/tasks`: a whole task; `id` overwrites that task. */
export const TaskBody = Type.Object({
  id: Type.Optional(Task.properties.id),
  ...settable,
  ...echoed,
}, { additionalProperties: false });
export type TaskInput = Static<typeof TaskBody>;

type Patchable<P extends TProperties> = {
  [K in keyof P]: P[K] extends TOptional<infer S extends TSchema> ? TOptional<TUnion<[S, TNull]>> : TOptional<P[K]>;
};
/** Every field optional; the record's optional ones also take null (which removes them). */
function patchable<P extends TProperties>(properties: P, required: readonly string[]): Patchable<P> {
  const plain = Type.Required(Type.Object(properties)).properties as TProperties;
  return Object.fromEntries(Object.keys(properties).map((key) => [
    key,
    Type.Optional(required.includes(key) ? plain[key] : Type.Union([plain[key], Type.Null()])),
  ])) as Patchable<P>;
}

/** `PATCH /api/tasks/{id}`: any subset of the fields; null removes an optional one; `id` is ignored. */
export const TaskPatchBody = Type.Object({
  id: Type.Optional(Type.Unknown()),
  ...patchable(settable, Task.required),
  ...echoed,
}, { additionalProperties: false });
export type TaskPatch = Static<typeof TaskPatchBody>;

export const TaskList = Type.Object({ tasks: Type.Array(TaskListEntry) });

const Id = Task.properties.id;
export const TaskParams = Type.Object({ id: Id });
export const VersionParams = Type.Object({ id: Id, versionId: Id });
export const SaveQuery = Type.Object({
  version: Type.Optional(Type.Boolean({ description: 'save a snapshot of the task it overwrites' })),
});

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });
export const Touched = Type.Object({ success: Type.Boolean(), updatedAt: Type.String({ maxLength: 64 }) });
