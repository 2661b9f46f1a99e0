import type { ClaimStore } from '../../../kernel/contracts/storage.js';
import type { Database } from './database.js';

/**
 * One statement decides: the insert wins when the key is new; on conflict the row is taken over
 * only if its claim has expired. PostgreSQL runs ON CONFLICT DO UPDATE atomically per row
 * (a concurrent claimer waits for the row, then re-checks the WHERE on the newest version),
 * so exactly one caller gets a row back. Expiry uses the server clock, shared by every instance.
 */
const CLAIM = `
  INSERT INTO claims AS c (key, owner, expires_at)
  VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
  ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
  WHERE c.expires_at <= clock_timestamp()
  RETURNING key`;

/** Expired claims are deleted every this many claims, so the table does not grow forever. */
const SWEEP_EVERY = 256;

export class PgClaimStore implements ClaimStore {
  private claimsSinceSweep = 0;

  constructor(private readonly db: Database) {}

  async claim(key: string, owner: string, ttlMs: number): Promise<boolean> {
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new TypeError(`claims: ttlMs must be a positive number of milliseconds, got ${ttlMs}`);
    const { rowCount } = await this.db.query(CLAIM, [key, owner, ttlMs]);
    this.claimsSinceSweep += 1;
    if (this.claimsSinceSweep >= SWEEP_EVERY) {
      this.claimsSinceSweep = 0;
      // A failed sweep loses nothing: the expired rows go with the next one.
      await this.db.query('DELETE FROM claims WHERE expires_at <= clock_timestamp()').catch(() => undefined);
    }
    return rowCount === 1;
  }
}
