// Results beyond RESULT_INLINE_MAX_BYTES, kept as blobs of the blob store (BLOB_STORE, where captures live) named
// `result.<executionId>.<12 hex>.json`. The prefix keeps them apart from captures and task files; the random part
// keeps apart the writes of two instances that both ended the same run (one cut off from the other): the record
// names the one that counts, and the sweep (orphan-sweep.ts) removes the other.
import { randomBytes } from 'node:crypto';

/** RESULT_INLINE_MAX_BYTES' default: a result whose JSON is larger is stored apart. */
export const DEFAULT_RESULT_INLINE_MAX_BYTES = 256 * 1024;
export const RESULT_BLOB_PREFIX = 'result.';
export const RESULT_CONTENT_TYPE = 'application/json';

const EXECUTION_ID = /^[A-Za-z0-9_-]{1,200}$/;
const RESULT_BLOB = /^result\.([A-Za-z0-9_-]{1,200})\.[0-9a-f]{12}\.json$/;

/** Whether an execution id fits a blob name (every id the service makes does; an imported one may not). */
export const canStoreApart = (executionId: string): boolean => EXECUTION_ID.test(executionId);

export const newResultBlobName = (executionId: string): string =>
  `${RESULT_BLOB_PREFIX}${executionId}.${randomBytes(6).toString('hex')}.json`;

/** The prefix every result blob of one execution starts with (ids hold no `.`, so no other id shares it). */
export const resultPrefixOf = (executionId: string): string => `${RESULT_BLOB_PREFIX}${executionId}.`;

/** The execution a result blob belongs to; undefined for any other name. */
export const executionOfResultBlob = (name: string): string | undefined => RESULT_BLOB.exec(name)?.[1];

/** The route that serves an execution's whole result. */
export const resultUrlOf = (executionId: string): string => `/api/executions/${encodeURIComponent(executionId)}/result`;
