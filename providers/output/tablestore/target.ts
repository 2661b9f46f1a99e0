import type { OutputCredentialConfig, OutputLocation, OutputTarget } from '../../../kernel/contracts/output.js';
import { Errors } from '../../../kernel/errors.js';
import { createTablestoreCall, type OutboundClient, type TablestoreCall, type TablestoreHttpOptions } from './http.js';
import { PRODUCT, shapeError } from './upstream-error.js';

/** Baserow refuses a batch of more than 200 rows. */
export const BATCH_SIZE = 200;

function assertId(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw Errors.VALIDATION_ERROR({ message: `${name} must be a whole number, got ${String(value)}` });
  }
}

const isLocation = (item: unknown): item is { id: number; name: string } =>
  typeof item === 'object' && item !== null &&
  Number.isSafeInteger((item as { id?: unknown }).id) && typeof (item as { name?: unknown }).name === 'string';

/** `{ id, name }` of every item `keep` accepts; the answer must be an array of such items. */
function locations(
  body: unknown, what: string, token: string, keep: (item: Record<string, unknown>) => boolean = () => true,
): OutputLocation[] {
  if (!Array.isArray(body) || !body.every(isLocation)) {
    throw shapeError(200, `a ${what} list it cannot read`, JSON.stringify(body) ?? '', token);
  }
  return body.filter((item) => keep(item as unknown as Record<string, unknown>)).map(({ id, name }) => ({ id, name }));
}

/** Rows the batch answer says were created (Baserow echoes them in `items`); the batch size otherwise. */
function created(body: unknown, sent: number): number {
  const items = (body as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? items.length : sent;
}

/** The tablestore target: Baserow's REST API, every call through the outbound client. */
export function createTablestoreTarget(client: OutboundClient, options: TablestoreHttpOptions = {}): OutputTarget {
  const call: TablestoreCall = createTablestoreCall(client, options);

  async function push(config: OutputCredentialConfig, tableId: number, rows: Record<string, unknown>[]): Promise<number> {
    assertId('tableId', tableId);
    let written = 0;
    for (let start = 0; start < rows.length; start += BATCH_SIZE) {
      const items = rows.slice(start, start + BATCH_SIZE);
      try {
        const body = await call(config, 'POST', `/api/database/rows/table/${tableId}/batch/?user_field_names=true`, { items });
        written += created(body, items.length);
      } catch (error) {
        if (written === 0 || !Errors.UPSTREAM_ERROR.is(error)) throw error;
        // The caller must know a retry would write the first rows twice.
        const reason = `${error.message} (after ${written} of ${rows.length} rows were written to ${PRODUCT} table ${tableId})`;
        throw Errors.UPSTREAM_ERROR({ reason }, { retryable: error.retryable });
      }
    }
    return written;
  }

  return {
    id: PRODUCT,
    capabilities: { browse: true },
    async listDatabases(config) {
      const body = await call(config, 'GET', '/api/applications/');
      return locations(body, 'applications', config.token, (item) => item.type === 'database');
    },
    async listTables(config, databaseId) {
      assertId('databaseId', databaseId);
      return locations(await call(config, 'GET', `/api/database/tables/database/${databaseId}/`), 'tables', config.token);
    },
    push,
  };
}
