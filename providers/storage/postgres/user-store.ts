import type { UserRecord } from '../../../kernel/contracts/records.js';
import type { UserStore } from '../../../kernel/contracts/storage.js';
import { assertKeyed } from '../shared/json-document.js';
import { emailLowerOf, explainEmailTaken, explainEmailTakenOnUpdate } from '../shared/user-email.js';
import type { Database } from './database.js';
import { DocumentTable } from './document-table.js';

/** unique_violation (23505) on the index over email_lower. */
function isEmailTaken(error: unknown): boolean {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  return code === '23505' && constraint === 'users_email_lower_idx';
}

export class PgUserStore extends DocumentTable<UserRecord> implements UserStore {
  constructor(db: Database) {
    super(db, 'users', [{ name: 'email_lower', of: emailLowerOf }]);
  }

  override put(user: UserRecord): Promise<UserRecord> {
    return explainEmailTaken(super.put(user), user, isEmailTaken);
  }

  override update(id: string, change: (current: UserRecord) => UserRecord | undefined): Promise<UserRecord | undefined> {
    return explainEmailTakenOnUpdate((changing) => super.update(id, changing), change, isEmailTaken);
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const { rows } = await this.db.query<{ doc: UserRecord }>('SELECT doc FROM users WHERE email_lower = $1', [email.toLowerCase()]);
    return rows[0]?.doc;
  }

  /**
   * SHARE ROW EXCLUSIVE conflicts with itself and with every insert, update and delete (but not
   * with reads): while one caller checks "no user yet" and inserts, every other insertFirst and
   * put waits, on this instance and on any other.
   */
  insertFirst(user: UserRecord): Promise<boolean> {
    assertKeyed('users', 'id', user);
    const inserted = this.db.transaction(async (client) => {
      await client.query('LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await client.query<{ taken: boolean }>('SELECT EXISTS (SELECT 1 FROM users) AS taken');
      if (rows[0].taken) return false;
      await this.putWith(client, user);
      return true;
    });
    return explainEmailTaken(inserted, user, isEmailTaken);
  }
}
