import type { BlobStore } from '../../kernel/contracts/blob.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { executionOfResultBlob, RESULT_BLOB_PREFIX } from './result-blobs.js';

/**
 * How old a result blob no record names must be before it goes: longer than a final record may wait in memory
 * for storage to come back (plugins/runs/final-records.ts retries within seconds), so a write in flight is safe.
 */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const UNFINISHED = new Set(['queued', 'running']);

/**
 * Removes the result blobs no execution record names: left by a crash between the blob and the record, by a run
 * another instance ended first, or by a record pruned or deleted elsewhere. A blob younger than `graceMs`, or of
 * a run still unfinished, stays. Resolves to how many went; a record that cannot be read keeps its blob.
 */
export async function sweepOrphanResults(blob: BlobStore, store: ExecutionStore, logger: Logger, graceMs = ORPHAN_GRACE_MS, now = Date.now()): Promise<number> {
  const orphans: string[] = [];
  for (const info of await blob.list(RESULT_BLOB_PREFIX)) {
    const executionId = executionOfResultBlob(info.name);
    if (executionId === undefined || now - info.modifiedMs < graceMs) continue;
    const record = await store.get(executionId).catch(() => null);
    if (record === null || (record && UNFINISHED.has(record.status))) continue;
    if (record?.resultStoredApart?.name !== info.name) orphans.push(info.name);
  }
  if (orphans.length > 0) {
    await blob.deleteMany(orphans);
    logger.info({ removed: orphans.length }, 'removed stored-apart results no execution names');
  }
  return orphans.length;
}
