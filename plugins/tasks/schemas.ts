import { Type, type Static, type TNull, type TOptional, type TProperties, type TSchema, type TUnion } from 'typebox';
import { Task, TaskListEntry } from '../../kernel/contracts/records.js';
import { AntiBotOption } from '../../layers/outcomes/anti-bot-option.js';
import { CompareOption } from '../../layers/run-intelligence/compare-option.js';
import { ExpectOption } from '../../layers/run-intelligence/expect-option.js';
import { ExtractOption } from '../../layers/field-mapping/extract-option.js';

// The task record (kernel/contracts/records.ts) is the one definition; the bodies below are made from it.
export {
  ACTION_TYPES, MAX_ACTIONS, TASK_MODES, Action, Schedule, Task, TaskListEntry, TaskSummary, TaskVersion, type ActionType,
} from '../../kernel/contracts/records.js';

/** The fields the server sets; a client may send them back as it received them: accepted and ignored. */
const SERVER_FIELDS = ['id', 'createdAt', 'updatedAt', 'versions'] as const;
const echoed = { versions: Type.Optional(Type.Unknown()), createdAt: Type.Optional(Type.Unknown()), updatedAt: Type.Optional(Type.Unknown()) };

/**
 * What a client sets: the record without the server's fields, each as the record has it (required or optional),
 * plus the options defined outside the kernel's record (kept on the task as sent).
 */
const settable = { ...Type.Omit(Task, SERVER_FIELDS).properties, antiBot: Type.Optional(AntiBotOption),
  expect: Type.Optional(ExpectOption), compare: Type.Optional(CompareOption), extract: Type.Optional(ExtractOption) };

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

/** Writes that honour an ETag (plugins/tasks/etag.ts). */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(Type.String({
    maxLength: 2000, description: 'the ETag the task was read with: a task changed since answers 412 TASK_CHANGED (`*`: any existing task)',
  })),
});

/**
 * A single task answered (read, saved, patched, restored), with the `ETag` it carries for a later If-Match: the
 * record's schema, plus the response header the OpenAPI document lists (`headers`, as for RunQueued).
 */
export const TaggedTask = {
  ...Task,
  headers: { etag: { type: 'string', description: 'the task\'s current state (a strong tag): send it back as If-Match to refuse a write over a change made since' } },
} as typeof Task;

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });
export const Touched = Type.Object({ success: Type.Boolean(), updatedAt: Type.String({ maxLength: 64 }) });

/** `POST /api/tasks/extract/script`: a field mapping in, its equivalent extraction script out. */
export const ExtractScriptBody = Type.Object({ extract: ExtractOption }, { additionalProperties: false });
export const ExtractScript = Type.Object({ script: Type.String({ description: 'a function body run in the page; returns result.data' }) });
