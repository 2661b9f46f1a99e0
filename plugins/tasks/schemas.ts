import { Type, type Static, type TNull, type TOptional, type TSchema, type TUnion } from 'typebox';
import { namedSchema } from '../../kernel/http/named-schema.js';

/** Every action type the runner understands (decisions.md, "Actions"). */
export const ACTION_TYPES = [
  'navigate', 'click', 'hover', 'type', 'press', 'wait', 'wait_selector', 'scroll',
  'javascript', 'screenshot', 'set', 'if', 'else', 'end', 'foreach', 'stop',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const TASK_MODES = ['agent', 'scrape', 'headful'] as const;

export const MAX_ACTIONS = 1000;

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Timestamp = Type.String({ maxLength: 64 });

export const Action = namedSchema('Action', Type.Object({
  id: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Enum([...ACTION_TYPES]),
  selector: Type.Optional(Type.String({ maxLength: 4000 })),
  value: Type.Optional(Type.String({ maxLength: 200_000 })),
  key: Type.Optional(Type.String({ maxLength: 100 })),
  varName: Type.Optional(Type.String({ maxLength: 200 })),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
  disabled: Type.Optional(Type.Boolean()),
}, { additionalProperties: false }));

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The Schedule record of kernel/contracts/records.ts; the schedules plugin checks its meaning. */
export const Schedule = namedSchema('Schedule', Type.Object({
  enabled: Type.Boolean(),
  frequency: Type.Optional(Type.Enum(['interval', 'hourly', 'daily', 'weekly', 'monthly'])),
  intervalMinutes: Type.Optional(Type.Integer({ minimum: 1 })),
  hour: Type.Optional(Type.Integer({ minimum: 0, maximum: 23 })),
  minute: Type.Optional(Type.Integer({ minimum: 0, maximum: 59 })),
  daysOfWeek: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), { maxItems: 7 })),
  dayOfMonth: Type.Optional(Type.Integer({ minimum: 1, maximum: 31 })),
  cron: Type.Optional(Type.String({ maxLength: 200 })),
  timezone: Type.Optional(Type.String({ maxLength: 100 })),
  lastRun: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  lastRunStatus: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  lastRunDurationMs: Type.Optional(Nullable(Type.Number())),
  nextRun: Type.Optional(Nullable(Type.Number())),
}, { additionalProperties: false }));

export const Viewport = Type.Object({
  width: Type.Integer({ minimum: 1, maximum: 10_000 }),
  height: Type.Integer({ minimum: 1, maximum: 10_000 }),
}, { additionalProperties: false });

export const Output = Type.Object({
  credentialId: Type.String({ minLength: 1, maxLength: 200 }),
  tableId: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer({ minimum: 0 })]),
  onError: Type.Optional(Type.Enum(['ignore', 'fail'])),
}, { additionalProperties: false });

/** Fields every task has. */
const required = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'absolute http(s) URL; may hold {$name} placeholders' }),
  mode: Type.Enum([...TASK_MODES]),
  actions: Type.Array(Action, { maxItems: MAX_ACTIONS }),
};

/** Fields a task may have; in a PATCH, null removes them. */
const optional = {
  description: Type.String({ maxLength: 2000 }),
  variables: Type.Record(Type.String(), Type.Unknown()),
  schedule: Schedule,
  extractionScript: Type.String({ maxLength: 200_000 }),
  rotateProxies: Type.Boolean(),
  proxyId: Type.String({ maxLength: 200 }),
  viewport: Viewport,
  userAgent: Type.String({ maxLength: 1000 }),
  timeoutMs: Type.Integer({ minimum: 1, maximum: 86_400_000, description: 'whole run; default 120000' }),
  output: Output,
  record: Type.Boolean({ description: 'record a video of the run' }),
};

/** Sent back by clients with what they received; accepted and ignored. */
const echoed = {
  versions: Type.Optional(Type.Unknown()),
  createdAt: Type.Optional(Type.Unknown()),
  updatedAt: Type.Optional(Type.Unknown()),
};

const allOptional = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, Type.Optional(s)])) as { [K in keyof T]: TOptional<T[K]> };
const allNullable = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, Nullable(s)])) as { [K in keyof T]: TUnion<[T[K], TNull]> };

/** `POST /api/tasks`: a whole task; `id` overwrites that task. */
export const TaskBody = Type.Object({
  id: Type.Optional(Id),
  ...required,
  ...allOptional(optional),
  ...echoed,
}, { additionalProperties: false });
export type TaskInput = Static<typeof TaskBody>;

/** `PATCH /api/tasks/{id}`: any subset of the fields; `id` is ignored. */
export const TaskPatchBody = Type.Object({
  id: Type.Optional(Type.Unknown()),
  ...allOptional(required),
  ...allOptional(allNullable(optional)),
  ...echoed,
}, { additionalProperties: false });
export type TaskPatch = Static<typeof TaskPatchBody>;

/**
 * A stored task as the record contract types it (kernel/contracts/records.ts). The options
 * (`viewport`, `output`, ...) pass through as stored; TaskBody documents their shapes.
 */
const TaskRecordFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  url: Type.String(),
  mode: Type.String({ description: TASK_MODES.join(' | ') }),
  actions: Type.Array(Type.Object({ ...Action.properties, type: Type.String() })),
  variables: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  schedule: Type.Optional(Schedule),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

/** A task without its history (`GET /api/tasks`, version snapshots). */
export const TaskSummary = namedSchema('TaskSummary', Type.Object(TaskRecordFields, { additionalProperties: true }));

export const TaskVersion = namedSchema('TaskVersion', Type.Object({
  id: Type.String(),
  savedAt: Timestamp,
  snapshot: Type.Record(Type.String(), Type.Unknown(), { description: 'the task as it was, without versions' }),
}));

/** A task with its history, newest first. */
export const Task = namedSchema('Task', Type.Object({ ...TaskRecordFields, versions: Type.Array(TaskVersion) }, { additionalProperties: true }));

export const TaskListEntry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  url: Type.String(),
  mode: Type.String(),
  updatedAt: Timestamp,
  createdAt: Timestamp,
  actionCount: Type.Integer(),
  schedule: Type.Optional(Schedule),
});
export const TaskList = Type.Object({ tasks: Type.Array(TaskListEntry) });

export const TaskParams = Type.Object({ id: Id });
export const VersionParams = Type.Object({ id: Id, versionId: Id });
export const SaveQuery = Type.Object({
  version: Type.Optional(Type.Boolean({ description: 'save a snapshot of the task it overwrites' })),
});

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });
export const Touched = Type.Object({ success: Type.Boolean(), updatedAt: Timestamp });
