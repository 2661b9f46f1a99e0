import { randomUUID } from 'node:crypto';
import type { Collection, Document } from 'mongodb';
import type { CounterState, CounterStore } from '../../../kernel/contracts/storage.js';
import { checkCounterArgs } from '../shared/counter-args.js';
import type { MongoContext } from './context.js';
import { isDuplicateKey } from './stored.js';

interface Count {
  _id: string;
  count?: number;
  expiresAt?: Date;
  /** The server clock at the last change, so the time left is read on the server's clock. */
  touchedAt?: Date;
  /** Set by the add that changed the count: the caller's own token tells it its add went through. */
  token?: string;
}

const live = { $gt: ['$expiresAt', '$$NOW'] };

/**
 * One pipeline update (atomic for its document, on the server clock `$$NOW`): an expired count starts over in a new
 * window, a live one grows, unless the sum would pass `limit`, in which case only `touchedAt` changes. Values are
 * literals, so no string is read as a field path.
 */
export function counterPipeline(delta: number, windowMs: number, limit: number | undefined, token: string): Document[] {
  const before = { $cond: ['$_live', { $ifNull: ['$count', 0] }, 0] };
  const opens = delta > 0 ? { $not: ['$_live'] } : false;
  return [
    { $set: { _live: live } },
    { $set: { _next: { $max: [0, { $add: [before, { $literal: delta }] }] } } },
    { $set: { _ok: limit === undefined || delta <= 0 ? true : { $lte: ['$_next', { $literal: limit }] } } },
    {
      $set: {
        count: { $cond: ['$_ok', '$_next', before] },
        expiresAt: { $cond: [{ $and: ['$_ok', opens] }, { $add: ['$$NOW', { $literal: windowMs }] }, '$expiresAt'] },
        token: { $cond: ['$_ok', { $literal: token }, '$token'] },
        touchedAt: '$$NOW',
      },
    },
    { $unset: ['_live', '_next', '_ok'] },
  ];
}

/** `{ _id: key, count, expiresAt, touchedAt, token }` in `expiring_counts` (`counters` holds the id sequences). */
export class MongoCounterStore implements CounterStore {
  private readonly collection: Collection<Count>;

  constructor(private readonly ctx: MongoContext) {
    this.collection = ctx.db.collection<Count>('expiring_counts');
  }

  add(key: string, delta: number, options: { windowMs: number; limit?: number }): Promise<CounterState> {
    return this.ctx.gate.run(async () => {
      checkCounterArgs(delta, options);
      const token = randomUUID();
      // A first add above the limit is refused without writing (an upsert would leave an empty count behind).
      const refusedAtOnce = options.limit !== undefined && delta > options.limit;
      const pipeline = counterPipeline(delta, options.windowMs, options.limit, token);
      for (let attempt = 0; ; attempt += 1) {
        try {
          const after = refusedAtOnce
            ? await this.collection.findOneAndUpdate({ _id: key }, [{ $set: { touchedAt: '$$NOW' } }], { returnDocument: 'after' })
            // Only an add opens a window: a take-back on a missing key writes nothing.
            : await this.collection.findOneAndUpdate({ _id: key }, pipeline, { upsert: delta > 0, returnDocument: 'after' });
          // No document back: a take-back of nothing, which did what it was asked.
          const added = refusedAtOnce ? false : after === null ? delta <= 0 : after.token === token;
          return stateOf(after, added);
        } catch (error) {
          // Two first adds of one key: the upsert that lost retries as an update.
          if (!isDuplicateKey(error) || attempt >= 3) throw error;
        }
      }
    });
  }

  reset(key: string): Promise<boolean> {
    return this.ctx.gate.run(async () => {
      const { deletedCount } = await this.collection.deleteOne({ _id: key, $expr: live });
      if (deletedCount === 0) await this.collection.deleteOne({ _id: key });
      return deletedCount > 0;
    });
  }
}

function stateOf(doc: Count | null, added: boolean): CounterState {
  const resetInMs = doc?.expiresAt && doc.touchedAt ? Math.max(0, doc.expiresAt.getTime() - doc.touchedAt.getTime()) : 0;
  // A count whose window has passed reads as none.
  return { added, count: resetInMs > 0 ? doc?.count ?? 0 : 0, resetInMs };
}
