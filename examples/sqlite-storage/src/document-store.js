// A DocumentStore over one table: the document as JSON in `body`, in insertion order (`seq`, kept on replace).
// better-sqlite3 is synchronous, so each method finishes its work (committed, with FULL sync on disk) before
// the promise it returns settles; writes that change a document run in one IMMEDIATE transaction.

/**
 * @template {{ id: string }} T
 * @typedef {import('taskloom/contracts').DocumentStore<T>} DocumentStore
 */

/** @param {unknown} doc */
function idOf(doc) {
  const id = /** @type {{ id?: unknown }} */ (doc)?.id;
  if (typeof id !== 'string' || id === '') throw new TypeError('a document needs a non-empty string id');
  return id;
}

/**
 * @template {{ id: string }} T
 * @param {import('./connection.js').Connection} connection
 * @param {'users' | 'sessions' | 'tasks' | 'credentials' | 'healing' | 'browser_states' | 'deliveries'} table
 * @param {(doc: T) => Record<string, string | number | null>} [columns] values of the table's extra columns
 */
export function createDocumentStore(connection, table, columns = () => ({})) {
  /** A row's document, a fresh copy. @param {unknown} row  @returns {T | undefined} */
  const parse = (row) => (row ? JSON.parse(/** @type {{ body: string }} */ (row).body) : undefined);
  /** @param {T} doc */
  const upsert = (doc) => {
    const extra = columns(doc);
    const names = ['id', 'body', ...Object.keys(extra)];
    const sets = names.slice(1).map((name) => `${name} = excluded.${name}`).join(', ');
    connection.db
      .prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')}) ON CONFLICT (id) DO UPDATE SET ${sets}`)
      .run({ id: idOf(doc), body: JSON.stringify(doc), ...extra });
  };
  const bump = () => connection.bump(table);

  /** @type {DocumentStore<T> & { putAll(docs: T[]): Promise<void> }} */
  const store = {
    async get(id) {
      return parse(connection.db.prepare(`SELECT body FROM ${table} WHERE id = ?`).get(id));
    },
    async list() {
      return connection.db.prepare(`SELECT body FROM ${table} ORDER BY seq`).all().map((row) => /** @type {T} */ (parse(row)));
    },
    async put(doc) {
      const body = JSON.stringify(doc);
      connection.write(() => { upsert(doc); bump(); });
      return JSON.parse(body);
    },
    async putAll(docs) {
      for (const doc of docs) idOf(doc);
      connection.write(() => {
        for (const doc of docs) upsert(doc);
        if (docs.length > 0) bump();
      });
    },
    async update(id, change) {
      return connection.write(() => {
        const current = parse(connection.db.prepare(`SELECT body FROM ${table} WHERE id = ?`).get(id));
        if (!current) return undefined;
        const next = change(structuredClone(current));
        if (next === undefined) return current;
        upsert({ ...next, id });
        bump();
        return /** @type {T} */ (JSON.parse(JSON.stringify({ ...next, id })));
      });
    },
    async delete(id) {
      return connection.write(() => {
        const removed = connection.db.prepare(`DELETE FROM ${table} WHERE id = ?`).run(id).changes > 0;
        if (removed) bump();
        return removed;
      });
    },
    async count() {
      return /** @type {{ n: number }} */ (connection.db.prepare(`SELECT count(*) AS n FROM ${table}`).get()).n;
    },
    async revision() {
      const row = /** @type {{ value: number } | undefined} */ (connection.db.prepare('SELECT value FROM revisions WHERE store = ?').get(table));
      return String(row?.value ?? 0);
    },
  };
  return store;
}
