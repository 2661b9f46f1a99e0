import type { SessionRecord } from '../../../kernel/contracts/records.js';
import type { SessionStore } from '../../../kernel/contracts/storage.js';
import type { Database } from './database.js';
import { DocumentTable } from './document-table.js';

/** Sessions with `expires_at_ms` beside the document, indexed, so expiry is one DELETE. */
export class PgSessionStore extends DocumentTable<SessionRecord> implements SessionStore {
  constructor(db: Database) {
    super(db, 'sessions', [{ name: 'expires_at_ms', of: (s) => (Number.isFinite(s.expiresAtMs) ? s.expiresAtMs : null) }]);
  }

  async deleteExpired(nowMs: number): Promise<number> {
    if (!Number.isFinite(nowMs)) throw new TypeError(`sessions: nowMs must be epoch milliseconds, got ${nowMs}`);
    const { rowCount } = await this.db.query('DELETE FROM sessions WHERE expires_at_ms < $1', [nowMs]);
    return rowCount ?? 0;
  }
}
