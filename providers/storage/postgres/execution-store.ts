import type { ExecutionRecord, ExecutionStatus, ExecutionSummary } from '../../../kernel/contracts/records.js';
import type { ExecutionMarkFilter, ExecutionQuery, ExecutionStore } from '../../../kernel/contracts/storage.js';
import type { Database, Queryable } from './database.js';
import { EXECUTION_COLUMNS, NEWEST_FIRST, executionRow, executionSql, summaryOf } from './execution-query.js';
import { assertKeyed, checkChanged, encode } from '../shared/json-document.js';
import { markWhere } from './mark-filter.js';

const NAME = 'executions';
const values = EXECUTION_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
const INSERT = `INSERT INTO executions (${EXECUTION_COLUMNS.join(', ')}) VALUES (${values})
  ON CONFLICT (execution_id) DO UPDATE SET ${EXECUTION_COLUMNS.slice(1).map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`;
const UPDATE = `UPDATE executions SET ${EXECUTION_COLUMNS.slice(1).map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE execution_id = $1`;
const MARK = `UPDATE executions AS e SET status = $1, summary = u.summary::json, doc = u.doc::json
  FROM unnest($2::text[], $3::text[], $4::text[]) AS u(id, summary, doc) WHERE e.execution_id = u.id`;

/**
 * The history: one row per run, summary columns beside the full record. Every list is an index
 * range scan in (started_at, seq) order, and a write touches one row whatever the history holds.
 */
export class PgExecutionStore implements ExecutionStore {
  constructor(private readonly db: Database) {}

  async insert(record: ExecutionRecord): Promise<ExecutionRecord> {
    assertKeyed(NAME, 'executionId', record);
    const { json, copy } = encode(record);
    // An existing id is replaced, keeping its place in insertion order.
    await this.db.query(INSERT, executionRow(copy, json));
    return copy;
  }

  update(executionId: string, change: (current: ExecutionRecord) => ExecutionRecord | undefined): Promise<ExecutionRecord | undefined> {
    return this.db.transaction(async (client) => {
      const current = await this.lockedGet(client, executionId);
      if (current === undefined) return undefined;
      const next = checkChanged(NAME, 'executionId', executionId, change(structuredClone(current)));
      if (next === undefined) return current;
      const { json, copy } = encode(next);
      await client.query(UPDATE, executionRow(copy, json));
      return copy;
    });
  }

  async get(executionId: string): Promise<ExecutionRecord | undefined> {
    const { rows } = await this.db.query<{ doc: ExecutionRecord }>('SELECT doc FROM executions WHERE execution_id = $1', [executionId]);
    return rows[0]?.doc;
  }

  async list(query?: ExecutionQuery): Promise<ExecutionRecord[]> {
    return (await this.select<{ doc: ExecutionRecord }>('doc', query)).map((row) => row.doc);
  }

  async summaries(query?: ExecutionQuery): Promise<ExecutionSummary[]> {
    return (await this.select<{ summary: ExecutionSummary }>('summary', query)).map((row) => row.summary);
  }

  async count(query?: Omit<ExecutionQuery, 'limit' | 'offset'>): Promise<number> {
    const { where, params } = executionSql(query, false);
    const { rows } = await this.db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM executions ${where}`, params);
    return rows[0].n;
  }

  async delete(executionId: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM executions WHERE execution_id = $1', [executionId]);
    return (rowCount ?? 0) > 0;
  }

  async clear(): Promise<number> {
    const { rowCount } = await this.db.query('DELETE FROM executions');
    return rowCount ?? 0;
  }

  /** One transaction: the matching rows are locked, rewritten in JS (the doc stays exact JSON) and updated in one statement. */
  async markAll(from: ExecutionStatus[], to: ExecutionStatus, finishedAt: string, filter: ExecutionMarkFilter = {}): Promise<number> {
    const { where, params } = markWhere(from, filter);
    return this.db.transaction(async (client) => {
      // Locked in one order, so two instances recovering at once cannot deadlock.
      const { rows } = await client.query<{ doc: ExecutionRecord }>(`SELECT doc FROM executions WHERE ${where} ORDER BY execution_id FOR UPDATE`, params);
      if (rows.length === 0) return 0;
      const ids: string[] = [];
      const summaries: string[] = [];
      const docs: string[] = [];
      for (const { doc } of rows) {
        const next = { ...doc, status: to, finishedAt };
        ids.push(next.executionId);
        summaries.push(JSON.stringify(summaryOf(next)));
        docs.push(JSON.stringify(next));
      }
      await client.query(MARK, [to, ids, summaries, docs]);
      return rows.length;
    });
  }

  /** One statement, a range scan of the started_at index. */
  async deleteStartedBefore(cutoffIso: string): Promise<string[]> {
    const cutoffMs = Date.parse(cutoffIso);
    if (!Number.isFinite(cutoffMs)) throw new TypeError(`executions: cutoff must be an ISO timestamp, got ${JSON.stringify(cutoffIso)}`);
    const { rows } = await this.db.query<{ execution_id: string }>(
      'DELETE FROM executions WHERE started_at < $1 RETURNING execution_id', [new Date(cutoffMs).toISOString()],
    );
    return rows.map((row) => row.execution_id);
  }

  private async select<R extends Record<string, unknown>>(column: 'doc' | 'summary', query?: ExecutionQuery): Promise<R[]> {
    const { where, page, params } = executionSql(query);
    const { rows } = await this.db.query<R>(`SELECT ${column} FROM executions ${where} ${NEWEST_FIRST} ${page}`, params);
    return rows;
  }

  private async lockedGet(client: Queryable, executionId: string): Promise<ExecutionRecord | undefined> {
    const { rows } = await client.query<{ doc: ExecutionRecord }>('SELECT doc FROM executions WHERE execution_id = $1 FOR UPDATE', [executionId]);
    return rows[0]?.doc;
  }
}
