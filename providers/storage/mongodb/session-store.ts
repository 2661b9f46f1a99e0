import type { SessionRecord } from '../../../kernel/contracts/records.js';
import type { SessionStore } from '../../../kernel/contracts/storage.js';
import type { MongoContext } from './context.js';
import { MongoDocuments } from './document-collection.js';

/** Sessions with `expiresAtMs` beside the JSON, indexed, so expiry is one deleteMany. */
export class MongoSessionStore extends MongoDocuments<SessionRecord> implements SessionStore {
  constructor(ctx: MongoContext) {
    super(ctx, 'sessions', (session) => ({ expiresAtMs: Number.isFinite(session.expiresAtMs) ? session.expiresAtMs : null }));
  }

  deleteExpired(nowMs: number): Promise<number> {
    return this.ctx.gate.run(async () => {
      if (!Number.isFinite(nowMs)) throw new TypeError(`sessions: nowMs must be epoch milliseconds, got ${nowMs}`);
      return (await this.collection.deleteMany({ expiresAtMs: { $lt: nowMs } })).deletedCount;
    });
  }
}
