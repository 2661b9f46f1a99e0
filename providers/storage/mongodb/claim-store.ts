import { randomUUID } from 'node:crypto';
import type { Collection, Document } from 'mongodb';
import type { ClaimStore } from '../../../kernel/contracts/storage.js';
import type { MongoContext } from './context.js';
import { isDuplicateKey } from './stored.js';

interface Claim {
  _id: string;
  owner?: string;
  expiresAt?: Date;
  token?: string;
}

/**
 * The update (an aggregation pipeline, so it can read the server clock `$$NOW`) takes the claim
 * only when it is free (missing or expired) and otherwise leaves the document as it was. A fresh
 * token tells the caller whether the document it got back is its own claim. One document
 * update is atomic, and a concurrent upsert of the same key fails on the duplicate `_id`.
 */
export function claimPipeline(owner: string, ttlMs: number, token: string): Document[] {
  const free = { $not: [{ $gt: ['$expiresAt', '$$NOW'] }] };
  return [
    {
      $set: {
        owner: { $cond: [free, { $literal: owner }, '$owner'] },
        token: { $cond: [free, { $literal: token }, '$token'] },
        expiresAt: { $cond: [free, { $add: ['$$NOW', ttlMs] }, '$expiresAt'] },
      },
    },
  ];
}

export class MongoClaimStore implements ClaimStore {
  private readonly collection: Collection<Claim>;

  constructor(private readonly ctx: MongoContext) {
    this.collection = ctx.db.collection<Claim>('claims');
  }

  claim(key: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.ctx.gate.run(async () => {
      if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new TypeError(`claims: ttlMs must be a positive number of milliseconds, got ${ttlMs}`);
      const token = randomUUID();
      try {
        const after = await this.collection.findOneAndUpdate({ _id: key }, claimPipeline(owner, ttlMs, token), { upsert: true, returnDocument: 'after' });
        return after?.token === token;
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    });
  }
}
