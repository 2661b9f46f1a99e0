import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { BlobContent, BlobStore } from '../../kernel/contracts/blob.js';
import type { ExecutionRecord, ExecutionResult } from '../../kernel/contracts/records.js';
import { Errors } from '../../kernel/errors.js';
import { RESULT_CONTENT_TYPE } from './result-blobs.js';

type WithResult = Pick<ExecutionRecord, 'executionId' | 'result' | 'resultStoredApart'>;
export type OpenedResult = Pick<BlobContent, 'stream' | 'size' | 'contentType'>;

/**
 * The whole result of a record, ready to stream as JSON: its blob when stored apart, else the record's own.
 * Throws RESULT_NOT_FOUND when the blob named is gone.
 */
export async function openResult(blob: BlobStore, record: WithResult): Promise<OpenedResult> {
  const apart = record.resultStoredApart;
  if (!apart) {
    const body = Buffer.from(JSON.stringify(record.result ?? {}));
    return { stream: Readable.from([body]), size: body.length, contentType: RESULT_CONTENT_TYPE };
  }
  const content = await blob.get(apart.name);
  if (!content) throw Errors.RESULT_NOT_FOUND({ id: record.executionId, reason: `(its stored blob ${apart.name} is missing)` });
  return { stream: content.stream, size: content.size, contentType: RESULT_CONTENT_TYPE };
}

/** The whole result, parsed (for those that read `data`: an export, a comparison with an earlier run). */
export async function fullResult(blob: BlobStore, record: WithResult): Promise<ExecutionResult> {
  const apart = record.resultStoredApart;
  if (!apart) return record.result;
  const content = await blob.get(apart.name);
  if (!content) throw Errors.RESULT_NOT_FOUND({ id: record.executionId, reason: `(its stored blob ${apart.name} is missing)` });
  return JSON.parse(await text(content.stream)) as ExecutionResult;
}

/** The record with its whole result inline and no marker (an export carries the data). */
export async function withFullResult<T extends WithResult>(blob: BlobStore, record: T): Promise<T> {
  if (!record.resultStoredApart) return record;
  const { resultStoredApart: _apart, ...rest } = record;
  return { ...rest, result: await fullResult(blob, record) } as T;
}
