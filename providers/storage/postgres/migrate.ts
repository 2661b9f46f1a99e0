import type { Logger } from '../../../kernel/contracts/logger.js';
import type { Database, Queryable } from './database.js';
import { POOL_DEFAULTS } from './pool-options.js';
import { migrations as released, type Migration } from './schema-migrations.js';

export const MIGRATIONS_TABLE = 'taskloom_migrations';

/**
 * Brings the schema up to the newest step in one transaction. A transaction-scoped advisory lock
 * (keyed by the schema) makes instances that start together take turns: the first applies the
 * steps, the others then find them recorded and apply nothing. A schema written by a newer
 * taskloom is refused rather than used. Its statements may run for minutes (an index on a large history),
 * past the pool's usual time limits.
 */
export async function migrate(db: Database, logger: Logger, steps: readonly Migration[] = released): Promise<number[]> {
  return db.transaction(async (client) => {
    const scope = db.schema ?? (await currentSchema(client));
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`taskloom.migrate:${scope}`]);
    if (db.schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${db.schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${MIGRATIONS_TABLE}`);
    const done = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...steps.map((step) => step.version));
    const unknown = [...done].filter((version) => version > newest);
    if (unknown.length > 0) {
      throw new Error(`the schema ${scope} has migration ${Math.max(...unknown)}, newer than this taskloom knows (${newest}): upgrade taskloom`);
    }
    const applied: number[] = [];
    for (const step of [...steps].sort((a, b) => a.version - b.version)) {
      if (done.has(step.version)) continue;
      await client.query(step.sql);
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (version, name) VALUES ($1, $2)`, [step.version, step.name]);
      logger.info({ version: step.version, migration: step.name, schema: scope }, 'applied a PostgreSQL migration');
      applied.push(step.version);
    }
    return applied;
  }, { timeoutMs: POOL_DEFAULTS.migrationTimeoutMs });
}

async function currentSchema(client: Queryable): Promise<string> {
  const { rows } = await client.query<{ name: string | null }>('SELECT current_schema() AS name');
  return rows[0]?.name ?? 'public';
}
