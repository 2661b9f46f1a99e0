import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { ExecutionQuery, ExecutionStore } from '../../kernel/contracts/storage.js';
import type { BlobStore } from '../../kernel/contracts/blob.js';
import { withoutOwner } from '../../layers/execution-view/answered-execution.js';
import { withFullResult } from '../../layers/stored-results/read-result.js';

/** Records read per storage call: bounds the export's memory whatever the history holds. */
export const PAGE_SIZE = 500;

export type ExecutionFilter = Omit<ExecutionQuery, 'limit' | 'offset'>;

/** Start time as every store orders it: epoch ms, 0 for a value that is not a date. */
const startMs = (iso: unknown): number => {
  const ms = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(ms) ? ms : 0;
};

/**
 * Every execution matching `filter`, newest first, one page at a time; the next page is read only when the
 * consumer asks for it (backpressure). Pages are chained by start time instead of a growing offset: each one
 * ends (`to`, inclusive) at the previous page's last start and skips the runs of that same millisecond already
 * read. So a run started during the export shifts nothing, and the thousandth page costs what the first did.
 */
export async function* executionRecords(
  store: ExecutionStore,
  filter: ExecutionFilter,
  pageSize = PAGE_SIZE,
): AsyncGenerator<ExecutionRecord> {
  let to = filter.to;
  let offset = 0;
  for (;;) {
    const page = await store.list({ ...filter, to, limit: pageSize, offset });
    yield* page.map(withoutOwner);
    if (page.length < pageSize) return;
    const lastMs = startMs(page[page.length - 1]!.startedAt);
    const ties = page.filter((record) => startMs(record.startedAt) === lastMs).length;
    offset = to !== undefined && startMs(to) === lastMs ? offset + ties : ties;
    to = new Date(lastMs).toISOString();
  }
}

/**
 * The records with a result stored apart (README "Large results") carrying it whole, read one at a time as the
 * export goes: an export holds the data, not a link. One whose blob is gone keeps its marker.
 */
export async function* withFullResults(blob: BlobStore, records: AsyncGenerator<ExecutionRecord>): AsyncGenerator<ExecutionRecord> {
  for await (const record of records) yield await withFullResult(blob, record).catch(() => record);
}

/**
 * The same records, with the first page already read: a storage failure then still gets a proper error answer
 * instead of a 200 whose body breaks off.
 */
export async function firstPageRead(records: AsyncGenerator<ExecutionRecord>): Promise<AsyncGenerator<ExecutionRecord>> {
  const first = await records.next();
  async function* rest(): AsyncGenerator<ExecutionRecord> {
    if (first.done) return;
    yield first.value;
    yield* records;
  }
  return rest();
}
