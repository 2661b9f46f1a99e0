import type { SessionRecord } from '../../../kernel/contracts/records.js';
import type { SessionStore } from '../../../kernel/contracts/storage.js';
import { DocumentCollection } from './document-collection.js';
import type { StoreContext } from './store-context.js';

export class JsonSessionStore extends DocumentCollection<SessionRecord> implements SessionStore {
  constructor(ctx: StoreContext) {
    super(ctx, 'sessions');
  }

  async deleteExpired(nowMs: number): Promise<number> {
    this.ctx.gate.assertOpen();
    const expired = [...this.values()].filter((session) => session.expiresAtMs < nowMs).map((session) => session.id);
    // Every delete lands in the same or an earlier batch than the last one.
    let last: Promise<void> | undefined;
    for (const id of expired) last = this.stageDelete(id) ?? last;
    await (last ?? this.settled());
    return expired.length;
  }
}
