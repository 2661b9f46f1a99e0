// Execution history: one row per run, its record as JSON plus the columns queries filter and sort on. Inserting
// or updating a record touches one row and its index entries, whatever the history holds.

/** @typedef {import('taskloom/contracts').ExecutionRecord} ExecutionRecord */
/** @typedef {import('taskloom/contracts').ExecutionQuery} ExecutionQuery */

const SUMMARY_FIELDS = /** @type {const} */ (['executionId', 'taskId', 'taskName', 'status', 'trigger', 'startedAt', 'durationMs', 'outcome', 'changed']);

/** startedAt in ms; a value that is not a date counts as 1970, as the contract says. @param {unknown} iso */
function startedMs(iso) {
  const ms = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(ms) ? ms : 0;
}

/** @param {string} name  @param {string} iso */
function boundMs(name, iso) {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new TypeError(`executions: ${name} must be an ISO timestamp, got ${JSON.stringify(iso)}`);
  return ms;
}

/** The WHERE clause and its values for a query's filters. @param {Omit<ExecutionQuery, 'limit' | 'offset'>} query */
function where(query) {
  /** @type {string[]} */
  const clauses = [];
  /** @type {(string | number)[]} */
  const values = [];
  if (query.status !== undefined) { clauses.push('status = ?'); values.push(query.status); }
  if (query.taskId !== undefined) { clauses.push('task_id = ?'); values.push(query.taskId); }
  // No column of its own (tables made before contract 2.3 have none): read from the stored record.
  if (query.trigger !== undefined) { clauses.push("json_extract(body, '$.trigger') = ?"); values.push(query.trigger); }
  // Contract 2.6: a record written before outcomes existed matches by its status of the same name.
  if (query.outcome !== undefined) { clauses.push("COALESCE(json_extract(body, '$.outcome'), status) = ?"); values.push(query.outcome); }
  // Contract 2.7: JSON true and false read as 1 and 0; a record without `changed` matches neither.
  if (query.changed !== undefined) { clauses.push("json_extract(body, '$.changed') = ?"); values.push(query.changed ? 1 : 0); }
  if (query.from !== undefined) { clauses.push('started_ms >= ?'); values.push(boundMs('from', query.from)); }
  if (query.to !== undefined) { clauses.push('started_ms <= ?'); values.push(boundMs('to', query.to)); }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', values };
}

/** @param {ExecutionRecord} record */
const columns = (record) => ({
  execution_id: record.executionId, task_id: record.taskId, status: record.status,
  instance_id: record.instanceId ?? null, started_ms: startedMs(record.startedAt), body: JSON.stringify(record),
});

/**
 * @param {import('./connection.js').Connection} connection
 * @returns {import('taskloom/contracts').ExecutionStore}
 */
export function createExecutionStore(connection) {
  const db = () => connection.db;
  /** @param {ExecutionQuery} query  @returns {string[]} */
  const bodies = (query = {}) => {
    const { sql, values } = where(query);
    const limit = query.limit ?? -1;
    const offset = query.offset ?? 0;
    const rows = db().prepare(`SELECT body FROM executions ${sql} ORDER BY started_ms DESC, seq DESC LIMIT ? OFFSET ?`).all(...values, limit, offset);
    return rows.map((row) => /** @type {{ body: string }} */ (row).body);
  };
  /** @param {string} id  @returns {ExecutionRecord | undefined} */
  const read = (id) => {
    const row = /** @type {{ body: string } | undefined} */ (db().prepare('SELECT body FROM executions WHERE execution_id = ?').get(id));
    return row ? JSON.parse(row.body) : undefined;
  };
  /** @param {ExecutionRecord} record */
  const write = (record) => {
    db().prepare(`UPDATE executions SET task_id = @task_id, status = @status, instance_id = @instance_id, started_ms = @started_ms,
      body = @body WHERE execution_id = @execution_id`).run(columns(record));
  };

  return {
    async insert(record) {
      db().prepare(`INSERT INTO executions (execution_id, task_id, status, instance_id, started_ms, body)
        VALUES (@execution_id, @task_id, @status, @instance_id, @started_ms, @body)`).run(columns(record));
      return JSON.parse(JSON.stringify(record));
    },
    async update(executionId, change) {
      return connection.write(() => {
        const current = read(executionId);
        if (!current) return undefined;
        const next = change(structuredClone(current));
        if (next === undefined) return current;
        const stored = { ...next, executionId };
        write(stored);
        return JSON.parse(JSON.stringify(stored));
      });
    },
    async get(executionId) {
      return read(executionId);
    },
    async list(query) {
      return bodies(query).map((body) => JSON.parse(body));
    },
    async summaries(query) {
      return bodies(query).map((body) => {
        const record = JSON.parse(body);
        const fields = SUMMARY_FIELDS.filter((field) => field in record).map((field) => [field, record[field]]);
        return /** @type {import('taskloom/contracts').ExecutionSummary} */ (Object.fromEntries(fields));
      });
    },
    async count(query = {}) {
      const { sql, values } = where(query);
      return /** @type {{ n: number }} */ (db().prepare(`SELECT count(*) AS n FROM executions ${sql}`).get(...values)).n;
    },
    async delete(executionId) {
      return db().prepare('DELETE FROM executions WHERE execution_id = ?').run(executionId).changes > 0;
    },
    async clear() {
      return db().prepare('DELETE FROM executions').run().changes;
    },
    async markAll(from, to, finishedAt, filter = {}) {
      if (from.length === 0) return 0;
      const owner = filter.instanceId === undefined ? '' : filter.instanceId === null ? 'AND instance_id IS NULL' : 'AND instance_id = ?';
      const ownerValues = typeof filter.instanceId === 'string' ? [filter.instanceId] : [];
      // One statement: a record that left `from` meanwhile no longer matches and stays as it is.
      return db().prepare(`UPDATE executions SET status = ?, body = json_set(body, '$.status', ?, '$.finishedAt', ?)
        WHERE status IN (${from.map(() => '?').join(', ')}) ${owner}`).run(to, to, finishedAt, ...from, ...ownerValues).changes;
    },
    async deleteStartedBefore(cutoffIso) {
      const cutoff = boundMs('cutoff', cutoffIso);
      return connection.write(() => {
        const ids = db().prepare('SELECT execution_id AS id FROM executions WHERE started_ms < ?').all(cutoff).map((row) => /** @type {{ id: string }} */ (row).id);
        db().prepare('DELETE FROM executions WHERE started_ms < ?').run(cutoff);
        return ids;
      });
    },
  };
}
