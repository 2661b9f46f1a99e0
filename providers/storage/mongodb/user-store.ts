import type { Collection } from 'mongodb';
import type { UserRecord } from '../../../kernel/contracts/records.js';
import type { UserStore } from '../../../kernel/contracts/storage.js';
import { assertKeyed, encode } from '../shared/json-document.js';
import { emailLowerOf, explainEmailTaken, explainEmailTakenOnUpdate } from '../shared/user-email.js';
import type { MongoContext } from './context.js';
import { MongoDocuments } from './document-collection.js';
import { isDuplicateKey } from './stored.js';

/** The singleton that makes insertFirst single: `{ _id: 'first-user', userId, atMs }` in `guards`. */
interface Guard {
  _id: string;
  userId: string;
  atMs: number;
}

const GUARD_ID = 'first-user';
/** A guard this old whose user does not exist (its insert died, or the user was deleted) may be taken over. */
export const GUARD_STALE_MS = 30_000;

export class MongoUserStore extends MongoDocuments<UserRecord> implements UserStore {
  private readonly guards: Collection<Guard>;

  constructor(ctx: MongoContext) {
    super(ctx, 'users', (user) => ({ emailLower: emailLowerOf(user) }));
    this.guards = ctx.db.collection<Guard>('guards');
  }

  override put(user: UserRecord): Promise<UserRecord> {
    return explainEmailTaken(super.put(user), user, isDuplicateKey);
  }

  override update(id: string, change: (current: UserRecord) => UserRecord | undefined): Promise<UserRecord | undefined> {
    return explainEmailTakenOnUpdate((changing) => super.update(id, changing), change, isDuplicateKey);
  }

  findByEmail(email: string): Promise<UserRecord | undefined> {
    return this.ctx.gate.run(async () => {
      const row = await this.collection.findOne({ emailLower: email.toLowerCase() }, { projection: { json: 1 }, sort: { seq: 1 } });
      return row ? (JSON.parse(row.json) as UserRecord) : undefined;
    });
  }

  /** Whoever inserts the guard document writes the first user; everyone else sees the duplicate key and gets false. */
  insertFirst(user: UserRecord): Promise<boolean> {
    return this.ctx.gate.run(async () => {
      assertKeyed('users', 'id', user);
      const { json, copy } = encode(user);
      if (await this.anyUser()) return false;
      if (!(await this.takeGuard(copy.id))) return false;
      if (await this.anyUser()) return false; // a plain put() got there first
      await explainEmailTaken(this.write(copy, json), user, isDuplicateKey);
      return true;
    });
  }

  private async anyUser(): Promise<boolean> {
    return (await this.collection.countDocuments({}, { limit: 1 })) > 0;
  }

  private async takeGuard(userId: string): Promise<boolean> {
    const now = Date.now();
    try {
      await this.guards.insertOne({ _id: GUARD_ID, userId, atMs: now });
      return true;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const held = await this.guards.findOne({ _id: GUARD_ID });
    if (!held || now - held.atMs < GUARD_STALE_MS) return false;
    if (await this.collection.findOne({ _id: held.userId }, { projection: { _id: 1 } })) return false;
    const { modifiedCount } = await this.guards.updateOne({ _id: GUARD_ID, userId: held.userId, atMs: held.atMs }, { $set: { userId, atMs: now } });
    return modifiedCount === 1;
  }
}
