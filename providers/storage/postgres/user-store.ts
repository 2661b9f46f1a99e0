import type { UserRecord } from '../../../kernel/contracts/records.js';
import type { UserStore } from '../../../kernel/contracts/storage.js';
import type { Database } from './database.js';
import { DocumentTable } from './document-table.js';
import { assertKeyed } from './json-doc.js';

export const emailLowerOf = (user: UserRecord): string | null => (typeof user.email === 'string' ? user.email.toLowerCase() : null);

/** A unique-index violation on the email reads as what it is. */
function explain(error: unknown, user: UserRecord): unknown {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  if (code === '23505' && constraint === 'users_email_lower_idx') {
    return new TypeError(`users: another user already has the email ${String(user.email)} (emails are unique, ignoring case)`, { cause: error });
  }
  return error;
}

export class PgUserStore extends DocumentTable<UserRecord> implements UserStore {
  constructor(db: Database) {
    super(db, 'users', [{ name: 'email_lower', of: emailLowerOf }]);
  }

  override async put(user: UserRecord): Promise<UserRecord> {
    try {
      return await super.put(user);
    } catch (error) {
      throw explain(error, user);
    }
  }

  override update(id: string, change: (current: UserRecord) => UserRecord | undefined): Promise<UserRecord | undefined> {
    let next: UserRecord | undefined;
    return super
      .update(id, (current) => (next = change(current)))
      .catch((error: unknown) => {
        throw next ? explain(error, next) : error;
      });
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
    return this.db
      .transaction(async (client) => {
        await client.query('LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE');
        const { rows } = await client.query<{ taken: boolean }>('SELECT EXISTS (SELECT 1 FROM users) AS taken');
        if (rows[0].taken) return false;
        await this.putWith(client, user);
        return true;
      })
      .catch((error: unknown) => {
        throw explain(error, user);
      });
  }
}
