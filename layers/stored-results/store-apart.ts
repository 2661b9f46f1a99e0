import type { BlobStore } from '../../kernel/contracts/blob.js';
import type { ExecutionResult, ResultStoredApart } from '../../kernel/contracts/records.js';
import { canStoreApart, newResultBlobName, RESULT_CONTENT_TYPE, resultUrlOf } from './result-blobs.js';

/** What the record keeps of a result: inline, or its small fields and where the whole is. */
export interface RecordedResult {
  result: ExecutionResult;
  resultStoredApart?: ResultStoredApart;
}

/**
 * The fields a result stored apart keeps in the record (decisions: `{ data, finalUrl, title, captures, error? }`),
 * with `data: null`: what the history shows without reading the blob.
 */
export function slimResult(result: ExecutionResult): ExecutionResult {
  const { finalUrl, title, captures, error, trace } = result;
  return {
    data: null,
    ...(finalUrl === undefined ? {} : { finalUrl }),
    ...(title === undefined ? {} : { title }),
    ...(captures === undefined ? {} : { captures }),
    ...(error === undefined ? {} : { error }),
    ...(trace === undefined ? {} : { trace }),
  };
}

/**
 * The result as the record should keep it: inline up to `maxBytes` of JSON, else written whole to a new blob first
 * and replaced by its slim fields and a marker. Written before the record, so a record never names a blob that is
 * not there; a crash in between leaves a blob no record names, which the sweep removes. Rejects when the blob store
 * fails (the caller then keeps the result inline: nothing acknowledged is lost).
 */
export async function storeResultApart(blob: BlobStore, executionId: string, result: ExecutionResult, maxBytes: number): Promise<RecordedResult> {
  if (!canStoreApart(executionId)) return { result };
  const json = Buffer.from(JSON.stringify(result));
  if (json.length <= maxBytes) return { result };
  const name = newResultBlobName(executionId);
  await blob.put(name, json, { contentType: RESULT_CONTENT_TYPE });
  return { result: slimResult(result), resultStoredApart: { bytes: json.length, name, url: resultUrlOf(executionId) } };
}
