import type { BlobStore } from '../../kernel/contracts/blob.js';
import { executionOfResultBlob, RESULT_BLOB_PREFIX, resultPrefixOf } from './result-blobs.js';

/**
 * Removes the stored-apart results of the executions (every blob of theirs, also one a second writer left): one
 * listing by the execution's prefix for a single id, one of every result blob for several. Resolves to how many.
 */
export async function removeResults(blob: BlobStore, executionIds: Iterable<string>): Promise<number> {
  const ids = new Set(executionIds);
  if (ids.size === 0) return 0;
  const [only] = ids;
  const listed = await blob.list(ids.size === 1 ? resultPrefixOf(only!) : RESULT_BLOB_PREFIX);
  const names = listed.map((info) => info.name).filter((name) => ids.has(executionOfResultBlob(name) ?? ''));
  if (names.length > 0) await blob.deleteMany(names);
  return names.length;
}
