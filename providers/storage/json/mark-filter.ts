import type { ExecutionRecord } from '../../../kernel/contracts/records.js';
import type { ExecutionMarkFilter } from '../../../kernel/contracts/storage.js';

/** Whether the record's owner is the one the filter asks for (`null`: a record that names no instance). */
export function ownerMatches(record: ExecutionRecord, filter: ExecutionMarkFilter): boolean {
  if (filter.instanceId === undefined) return true;
  if (filter.instanceId === null) return typeof record.instanceId !== 'string';
  return record.instanceId === filter.instanceId;
}
