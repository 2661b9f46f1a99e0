import type { CounterState, CounterStore } from '../../../kernel/contracts/storage.js';
import { checkCounterArgs } from '../shared/counter-args.js';
import type { Database } from './database.js';

// Every statement reads the server clock once (statement_timestamp), shared by every instance.
const RESET_IN_MS = `GREATEST(0, EXTRACT(EPOCH FROM (expires_at - statement_timestamp())) * 1000)::float8 AS reset_in_ms`;

/**
 * One statement adds: a new key is inserted with its window; on conflict an expired row starts over and a live one
 * grows, unless the limit says no (the WHERE of ON CONFLICT DO UPDATE is re-checked on the newest row version, so
 * concurrent adds from any instance never pass the limit together). No row back means the limit refused it.
 */
const ADD = `
  INSERT INTO counters AS c (key, count, expires_at)
  VALUES ($1, $2, statement_timestamp() + $3 * interval '1 millisecond')
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN c.expires_at <= statement_timestamp() THEN EXCLUDED.count ELSE c.count + EXCLUDED.count END,
    expires_at = CASE WHEN c.expires_at <= statement_timestamp() THEN EXCLUDED.expires_at ELSE c.expires_at END
  WHERE $4::integer IS NULL OR (CASE WHEN c.expires_at <= statement_timestamp() THEN 0 ELSE c.count END) + EXCLUDED.count <= $4::integer
  RETURNING count, ${RESET_IN_MS}`;
const TAKE_BACK = `UPDATE counters SET count = GREATEST(0, count + $2) WHERE key = $1 AND expires_at > statement_timestamp() RETURNING count, ${RESET_IN_MS}`;
const READ = `SELECT count, ${RESET_IN_MS} FROM counters WHERE key = $1 AND expires_at > statement_timestamp()`;

/** Expired rows are deleted every this many adds, so the table does not grow forever. */
const SWEEP_EVERY = 256;

type Row = { count: number; reset_in_ms: number };

export class PgCounterStore implements CounterStore {
  private addsSinceSweep = 0;

  constructor(private readonly db: Database) {}

  async add(key: string, delta: number, options: { windowMs: number; limit?: number }): Promise<CounterState> {
    checkCounterArgs(delta, options);
    await this.sweepNow();
    if (delta <= 0) {
      const { rows } = await this.db.query<Row>(TAKE_BACK, [key, delta]);
      return state(true, rows[0]);
    }
    // A first add above the limit would be inserted (the limit guards the update only): it is refused here.
    if (options.limit === undefined || delta <= options.limit) {
      const { rows } = await this.db.query<Row>(ADD, [key, delta, options.windowMs, options.limit === undefined ? null : Math.floor(options.limit)]);
      if (rows.length === 1) return state(true, rows[0]);
    }
    const { rows } = await this.db.query<Row>(READ, [key]);
    return state(false, rows[0]);
  }

  async reset(key: string): Promise<boolean> {
    const { rows } = await this.db.query<{ live: boolean }>('DELETE FROM counters WHERE key = $1 RETURNING expires_at > statement_timestamp() AS live', [key]);
    return rows[0]?.live === true;
  }

  private async sweepNow(): Promise<void> {
    if (++this.addsSinceSweep < SWEEP_EVERY) return;
    this.addsSinceSweep = 0;
    // A failed sweep loses nothing: the expired rows go with the next one.
    await this.db.query('DELETE FROM counters WHERE expires_at <= statement_timestamp()').catch(() => undefined);
  }
}

const state = (added: boolean, row: Row | undefined): CounterState =>
  ({ added, count: row?.count ?? 0, resetInMs: row ? Math.ceil(row.reset_in_ms) : 0 });
