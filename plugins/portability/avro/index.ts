import { executionV1 } from './execution-v1.js';
import { executionV2 } from './execution-v2.js';
import { executionV3 } from './execution-v3.js';
import type { AvroRecord } from './schema-types.js';
import { taskV1 } from './task-v1.js';
import { taskV2 } from './task-v2.js';
import { taskV3 } from './task-v3.js';

export type { AvroRecord } from './schema-types.js';
export { executionToAvro, executionFromAvro, type ExecutionAvro } from './execution-codec.js';
export { taskToAvro, taskFromAvro, type TaskAvro } from './task-codec.js';

/**
 * Every version of one record's Avro schema. The evolution rule: a new version may only add fields with a
 * default, rename fields keeping the old name in `aliases`, or widen types Avro promotes (int -> long ...),
 * so that data written with any older version is read with the latest one. Old versions are never edited.
 */
export interface SchemaHistory {
  /** `versions[n - 1]` is version n. */
  readonly versions: readonly AvroRecord[];
  readonly latest: AvroRecord;
  readonly latestVersion: number;
}

const history = (versions: AvroRecord[]): SchemaHistory =>
  ({ versions, latest: versions[versions.length - 1]!, latestVersion: versions.length });

/** The Avro schemas of the records the service exports. */
export const avroSchemas = {
  execution: history([executionV1, executionV2, executionV3]),
  task: history([taskV1, taskV2, taskV3]),
} as const;

/** Metadata key of an Avro container file holding the schema version its records were written with. */
export const SCHEMA_VERSION_METADATA = 'taskloom.schema.version';
