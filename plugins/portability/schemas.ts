import { Type, type Static, type TSchema } from 'typebox';
import type { Readable } from 'node:stream';

/** The same values as kernel/contracts/records.ts ExecutionStatus (the executions plugin owns its own copy). */
export const EXECUTION_STATUSES = ['queued', 'running', 'success', 'error', 'timeout', 'cancelled', 'interrupted'] as const;
export const EXPORT_FORMATS = ['ndjson', 'csv', 'avro'] as const;
export type ExportFormatName = (typeof EXPORT_FORMATS)[number];

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Id = Type.String({ minLength: 1, maxLength: 200 });
const Timestamp = Type.String({ format: 'date-time', maxLength: 64, description: 'ISO 8601' });

/** `GET /api/executions/export`; the CLI (`taskloom export`) sends the same names. */
export const ExportQuery = Type.Object({
  format: Type.Enum([...EXPORT_FORMATS], { default: 'ndjson', description: 'ndjson (default), csv or avro' }),
  taskId: Type.Optional(Id),
  status: Type.Optional(Type.Enum([...EXECUTION_STATUSES])),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601; runs started at or after it' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601; runs started at or before it' })),
});
export type ExportQuery = Static<typeof ExportQuery>;

const binary = Type.Unsafe<Readable>({ type: 'string', format: 'binary' });
/** The media types of the export; the stream is sent as is, never serialised. */
export const ExportFile = {
  description: 'every matching execution, newest first, streamed',
  content: {
    'application/x-ndjson': { schema: binary },
    'text/csv': { schema: binary },
    'application/avro': { schema: binary },
  },
};

/** The bundle's identity: a reader refuses other formats and versions it does not know. */
export const BUNDLE_FORMAT = 'taskloom.tasks';
export const BUNDLE_VERSION = 1;
export const MAX_BUNDLE_TASKS = 10_000;

const BundleAction = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.String({ minLength: 1, maxLength: 100 }),
  selector: Type.Optional(Type.String({ maxLength: 4000 })),
  value: Type.Optional(Type.String({ maxLength: 200_000 })),
  key: Type.Optional(Type.String({ maxLength: 100 })),
  varName: Type.Optional(Type.String({ maxLength: 200 })),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
  disabled: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

/** A stored schedule (kernel/contracts/records.ts Schedule); its meaning is the schedules plugin's to judge. */
const BundleSchedule = Type.Object({
  enabled: Type.Boolean(),
  frequency: Type.Optional(Type.Enum(['interval', 'hourly', 'daily', 'weekly', 'monthly'])),
  intervalMinutes: Type.Optional(Type.Integer()),
  hour: Type.Optional(Type.Integer()),
  minute: Type.Optional(Type.Integer()),
  daysOfWeek: Type.Optional(Type.Array(Type.Integer(), { maxItems: 7 })),
  dayOfMonth: Type.Optional(Type.Integer()),
  cron: Type.Optional(Type.String({ maxLength: 200 })),
  timezone: Type.Optional(Type.String({ maxLength: 100 })),
  lastRun: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  lastRunStatus: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  lastRunDurationMs: Type.Optional(Nullable(Type.Number())),
  nextRun: Type.Optional(Nullable(Type.Number({ description: 'ignored: the receiving scheduler works it out' }))),
}, { additionalProperties: false });

const BundleVersion = Type.Object({
  id: Id,
  savedAt: Timestamp,
  snapshot: Type.Record(Type.String(), Type.Unknown(), { description: 'the task as it was, without versions' }),
}, { additionalProperties: false });

/**
 * A task as stored, with its history and schedule. The options beyond the seed are typed where the service
 * knows them; others pass through as the record contract keeps them ("unknown top-level options are kept").
 */
export const BundleTask = Type.Object({
  id: Id,
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  mode: Type.Enum(['agent', 'scrape', 'headful']),
  actions: Type.Array(BundleAction, { maxItems: 1000 }),
  variables: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  schedule: Type.Optional(BundleSchedule),
  extractionScript: Type.Optional(Type.String({ maxLength: 200_000 })),
  rotateProxies: Type.Optional(Type.Boolean()),
  proxyId: Type.Optional(Type.String({ maxLength: 200 })),
  viewport: Type.Optional(Type.Object({ width: Type.Integer({ minimum: 1, maximum: 10_000 }), height: Type.Integer({ minimum: 1, maximum: 10_000 }) })),
  userAgent: Type.Optional(Type.String({ maxLength: 1000 })),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400_000 })),
  output: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  record: Type.Optional(Type.Boolean()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  versions: Type.Optional(Type.Array(BundleVersion, { maxItems: 100, description: 'newest first' })),
}, { additionalProperties: true, maxProperties: 64 });

export const TaskBundle = Type.Object({
  format: Type.Literal(BUNDLE_FORMAT),
  formatVersion: Type.Literal(BUNDLE_VERSION, { description: 'the bundle format version this service reads and writes' }),
  exportedAt: Type.Optional(Timestamp),
  tasks: Type.Array(BundleTask, { maxItems: MAX_BUNDLE_TASKS }),
}, { additionalProperties: false });
export type TaskBundle = Static<typeof TaskBundle>;

export const CONFLICT_POLICIES = ['fail', 'skip', 'replace'] as const;
export type ConflictPolicy = (typeof CONFLICT_POLICIES)[number];

export const ImportQuery = Type.Object({
  onConflict: Type.Enum([...CONFLICT_POLICIES], {
    default: 'fail',
    description: 'a task whose id exists already: fail (409, nothing imported), skip it, or replace it',
  }),
});

export const ImportAnswer = Type.Object({
  success: Type.Boolean(),
  created: Type.Array(Type.String()),
  replaced: Type.Array(Type.String()),
  skipped: Type.Array(Type.String()),
  scheduled: Type.Array(Type.String(), { description: 'imported tasks whose enabled schedule the scheduler now runs' }),
  notScheduled: Type.Array(Type.Object({ taskId: Type.String(), error: Type.String(), details: Type.Optional(Type.String()) }), {
    description: 'enabled schedules the scheduler refused (stored all the same)',
  }),
});
export type ImportAnswer = Static<typeof ImportAnswer>;

export { ErrorBody } from '../../kernel/http/error-body.js';
