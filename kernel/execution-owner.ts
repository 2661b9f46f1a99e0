import type { ExecutionRecord } from './contracts/records.js';

/** The instance that owns a run is internal (recovery, schedules): what leaves the service omits it. */
export function withoutOwner(record: ExecutionRecord): ExecutionRecord {
  const { instanceId: _owner, ...rest } = record;
  return rest;
}
