import type { DocumentStore } from '../../../kernel/contracts/storage.js';
import { assertKeyed, checkChanged, encode } from '../shared/json-document.js';
import type { Database, Queryable } from './database.js';

/** putAll: rows per INSERT (each row is a few parameters; the server takes at most 65,535). */
const ROWS_PER_STATEMENT = 500;

/** A column kept next to `doc`, copied from it on every write. */
export interface Column<T> {
  name: string;
  of(doc: T): unknown;
}

/**
 * One table of documents keyed by `id`: `(id text primary key, seq bigserial, <columns>, doc json)`.
 * `update` locks the row (`SELECT ... FOR UPDATE`) for the read-change-write, so concurrent
 * updates, on this instance or another, queue on the row and none is lost.
 */
export class DocumentTable<T extends { id: string }> implements DocumentStore<T> {
  private readonly upsertSql: string;
  private readonly updateSql: string;
  private readonly names: string[];

  constructor(
    protected readonly db: Database,
    readonly table: string,
    private readonly columns: Column<T>[] = [],
  ) {
    const names = ['id', 'doc', ...columns.map((c) => c.name)];
    this.names = names;
    const values = names.map((_, i) => `$${i + 1}`);
    const sets = names.slice(1).map((name) => `${name} = EXCLUDED.${name}`);
    this.upsertSql = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${values.join(', ')}) ON CONFLICT (id) DO UPDATE SET ${sets.join(', ')}`;
    this.updateSql = `UPDATE ${table} SET ${names.slice(1).map((name, i) => `${name} = $${i + 2}`).join(', ')} WHERE id = $1`;
  }

  async get(id: string): Promise<T | undefined> {
    const { rows } = await this.db.query<{ doc: T }>(`SELECT doc FROM ${this.table} WHERE id = $1`, [id]);
    return rows[0]?.doc;
  }

  async list(): Promise<T[]> {
    const { rows } = await this.db.query<{ doc: T }>(`SELECT doc FROM ${this.table} ORDER BY seq`);
    return rows.map((row) => row.doc);
  }

  async put(doc: T): Promise<T> {
    assertKeyed(this.table, 'id', doc);
    const { json, copy } = encode(doc);
    await this.db.query(this.upsertSql, this.params(copy, json));
    return copy;
  }

  /** Inserts or replaces inside a caller's transaction. */
  protected async putWith(client: Queryable, doc: T): Promise<T> {
    const { json, copy } = encode(doc);
    await client.query(this.upsertSql, this.params(copy, json));
    return copy;
  }

  /** Every document in one transaction, a few hundred rows per statement (TaskStore.putAll). */
  async putAll(docs: T[]): Promise<void> {
    const latest = new Map<string, T>();
    for (const doc of docs) {
      assertKeyed(this.table, 'id', doc);
      latest.set(doc.id, doc);
    }
    const rows = [...latest.values()].map((doc) => {
      const { json, copy } = encode(doc);
      return this.params(copy, json);
    });
    if (rows.length === 0) return;
    await this.db.transaction(async (client) => {
      for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(at, at + ROWS_PER_STATEMENT);
        const width = this.names.length;
        const tuples = chunk.map((_, row) => `(${this.names.map((__, col) => `$${row * width + col + 1}`).join(', ')})`);
        const sets = this.names.slice(1).map((name) => `${name} = EXCLUDED.${name}`).join(', ');
        await client.query(`INSERT INTO ${this.table} (${this.names.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (id) DO UPDATE SET ${sets}`, chunk.flat());
      }
    });
  }

  update(id: string, change: (current: T) => T | undefined): Promise<T | undefined> {
    return this.db.transaction(async (client) => {
      const { rows } = await client.query<{ doc: T }>(`SELECT doc FROM ${this.table} WHERE id = $1 FOR UPDATE`, [id]);
      if (rows.length === 0) return undefined;
      const current = rows[0].doc;
      const next = checkChanged(this.table, 'id', id, change(structuredClone(current)));
      if (next === undefined) return current;
      const { json, copy } = encode(next);
      await client.query(this.updateSql, this.params(copy, json));
      return copy;
    });
  }

  async delete(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.table} WHERE id = $1`, [id]);
    return (rowCount ?? 0) > 0;
  }

  async count(): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${this.table}`);
    return rows[0].n;
  }

  private params(doc: T, json: string): unknown[] {
    return [doc.id, json, ...this.columns.map((column) => column.of(doc))];
  }
}
