import type { ExecutionRecord } from './contracts/records.js';

/** The instance that owns a run, and its worker's claim, are internal (recovery, fencing): what leaves the service omits them. */
export function withoutOwner(record: ExecutionRecord): ExecutionRecord {
  const { instanceId: _owner, runToken: _claim, ...rest } = record;
  return rest;
}
