import { Type, type Static } from 'typebox';
import type { Readable } from 'node:stream';
import { Execution, Task } from '../../kernel/contracts/records.js';

export const EXPORT_FORMATS = ['ndjson', 'csv', 'avro'] as const;
export type ExportFormatName = (typeof EXPORT_FORMATS)[number];

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Timestamp = Type.String({ format: 'date-time', maxLength: 64, description: 'ISO 8601' });

/** `GET /api/executions/export`; the CLI (`taskloom export`) sends the same names. */
export const ExportQuery = Type.Object({
  format: Type.Enum([...EXPORT_FORMATS], { default: 'ndjson', description: 'ndjson (default), csv or avro' }),
  taskId: Type.Optional(Id),
  status: Type.Optional(Execution.properties.status),
  trigger: Type.Optional(Execution.properties.trigger),
  outcome: Type.Optional(Execution.properties.outcome),
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

/**
 * Every task as stored, with its history and schedule: each is the API's task record (kernel/contracts/records.ts),
 * so an import accepts exactly what the API does (unknown top-level options pass through as the record keeps them).
 */
export const TaskBundle = Type.Object({
  format: Type.Literal(BUNDLE_FORMAT),
  formatVersion: Type.Literal(BUNDLE_VERSION, { description: 'the bundle format version this service reads and writes' }),
  exportedAt: Type.Optional(Timestamp),
  tasks: Type.Array(Task, { maxItems: MAX_BUNDLE_TASKS }),
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
  converted: Type.Optional(Type.Array(Type.Object({ taskId: Type.String(), name: Type.String(), notes: Type.Array(Type.String()) }), {
    description: "only for the replaced product's export: each task as imported, with what was left out or changed without changing its data",
  })),
});
export type ImportAnswer = Static<typeof ImportAnswer>;

export { ErrorBody } from '../../kernel/http/error-body.js';
