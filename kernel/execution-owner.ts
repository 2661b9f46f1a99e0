import type { ExecutionRecord } from './contracts/records.js';

/**
 * The instance that owns a run, its worker's claim and its queueing (which holds the run's variables) are internal
 * (recovery, fencing, retries): what leaves the service omits them.
 */
export function withoutOwner(record: ExecutionRecord): ExecutionRecord {
  const { instanceId: _owner, runToken: _claim, queueing: _queueing, ...rest } = record;
  return rest;
}
