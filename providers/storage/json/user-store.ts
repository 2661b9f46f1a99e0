import type { UserRecord } from '../../../kernel/contracts/records.js';
import type { UserStore } from '../../../kernel/contracts/storage.js';
import { DocumentCollection } from './document-collection.js';
import type { StoreContext } from './store-context.js';

export class JsonUserStore extends DocumentCollection<UserRecord> implements UserStore {
  constructor(ctx: StoreContext) {
    super(ctx, 'users');
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    this.ctx.gate.assertOpen();
    const wanted = email.toLowerCase();
    let found: UserRecord | undefined;
    for (const user of this.values()) {
      if (typeof user.email === 'string' && user.email.toLowerCase() === wanted) {
        found = user;
        break;
      }
    }
    await this.settled();
    return found && structuredClone(found);
  }

  async insertFirst(user: UserRecord): Promise<boolean> {
    this.ctx.gate.assertOpen();
    // Check and insert happen in one synchronous step, so concurrent callers cannot both see zero.
    if (this.size > 0) {
      await this.settled();
      return false;
    }
    await this.stagePut(user).durable;
    return true;
  }
}
