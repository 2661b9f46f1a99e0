import type { SettingsStore } from '../../../kernel/contracts/storage.js';
import type { Database, Queryable } from './database.js';

/** One advisory lock per key, taken by set and update, so even a key that has no row yet is changed by one caller at a time. */
const LOCK_KEY = "SELECT pg_advisory_xact_lock(hashtextextended('taskloom.settings:' || coalesce(current_schema(), '') || ':' || $1, 0))";
const UPSERT = 'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value';

function encodeValue(key: string, value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError(`settings: the value of ${key} must be a JSON value, got ${typeof value}`);
  return json;
}

export class PgSettingsStore implements SettingsStore {
  constructor(private readonly db: Database) {}

  async get<V = unknown>(key: string): Promise<V | undefined> {
    const { rows } = await this.db.query<{ value: V }>('SELECT value FROM settings WHERE key = $1', [key]);
    return rows.length === 0 ? undefined : rows[0].value;
  }

  async set<V>(key: string, value: V): Promise<void> {
    const json = encodeValue(key, value);
    await this.db.transaction(async (client) => {
      await client.query(LOCK_KEY, [key]);
      await client.query(UPSERT, [key, json]);
    });
  }

  update<V>(key: string, change: (current: V | undefined) => V): Promise<V> {
    return this.db.transaction(async (client: Queryable) => {
      await client.query(LOCK_KEY, [key]);
      const { rows } = await client.query<{ value: V }>('SELECT value FROM settings WHERE key = $1 FOR UPDATE', [key]);
      const next = change(rows.length === 0 ? undefined : rows[0].value);
      if (typeof (next as { then?: unknown } | null)?.then === 'function') throw new TypeError('settings: change must return the value, not a promise');
      const json = encodeValue(key, next);
      await client.query(UPSERT, [key, json]);
      return JSON.parse(json) as V;
    });
  }

  async delete(key: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM settings WHERE key = $1', [key]);
    return (rowCount ?? 0) > 0;
  }

  async keys(): Promise<string[]> {
    const { rows } = await this.db.query<{ key: string }>('SELECT key FROM settings');
    return rows.map((row) => row.key);
  }
}
