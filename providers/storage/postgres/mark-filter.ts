import type { ExecutionStatus } from '../../../kernel/contracts/records.js';
import type { ExecutionMarkFilter } from '../../../kernel/contracts/storage.js';

/**
 * The WHERE clause of `markAll`: the statuses, then the owner. The owner is read from the stored document
 * (no column: only recovery asks, over the few queued and running rows the status index finds).
 */
export function markWhere(from: ExecutionStatus[], filter: ExecutionMarkFilter): { where: string; params: unknown[] } {
  if (filter.instanceId === undefined) return { where: 'status = ANY($1::text[])', params: [from] };
  if (filter.instanceId === null) {
    return { where: `status = ANY($1::text[]) AND json_typeof(doc->'instanceId') IS DISTINCT FROM 'string'`, params: [from] };
  }
  return {
    where: `status = ANY($1::text[]) AND json_typeof(doc->'instanceId') = 'string' AND doc->>'instanceId' = $2`,
    params: [from, filter.instanceId],
  };
}
