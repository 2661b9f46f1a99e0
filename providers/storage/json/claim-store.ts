import type { ClaimStore } from '../../../kernel/contracts/storage.js';
import { DocumentCollection } from './document-collection.js';
import type { JournalBacked, StoreContext } from './store-context.js';

interface ClaimDoc {
  id: string;
  owner: string;
  expiresAtMs: number;
}

/** Expired claims are dropped every this many successful claims, so the set does not grow forever. */
const SWEEP_EVERY = 256;

export class JsonClaimStore implements ClaimStore, JournalBacked {
  private readonly docs: DocumentCollection<ClaimDoc>;
  private claimsSinceSweep = 0;

  constructor(private readonly ctx: StoreContext) {
    this.docs = new DocumentCollection<ClaimDoc>(ctx, 'claims');
  }

  open(): Promise<void> {
    return this.docs.open();
  }

  check(): Promise<void> {
    return this.docs.check();
  }

  close(): Promise<void> {
    return this.docs.close();
  }

  async claim(key: string, owner: string, ttlMs: number): Promise<boolean> {
    this.ctx.gate.assertOpen();
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new TypeError(`claims: ttlMs must be a positive number of milliseconds, got ${ttlMs}`);
    const now = Date.now();
    const held = this.docs.peek(key);
    // Check and take in one synchronous step: exactly one concurrent caller gets true.
    if (held && held.expiresAtMs > now) {
      await this.docs.settled();
      return false;
    }
    const { durable } = this.docs.stagePut({ id: key, owner, expiresAtMs: now + ttlMs });
    this.claimsSinceSweep += 1;
    if (this.claimsSinceSweep >= SWEEP_EVERY) this.sweep(now);
    await durable;
    return true;
  }

  private sweep(now: number): void {
    this.claimsSinceSweep = 0;
    const expired = [...this.docs.values()].filter((claim) => claim.expiresAtMs <= now);
    // Nobody waits on these: a lost sweep only means the expired claims are dropped next time.
    for (const claim of expired) void this.docs.stageDelete(claim.id);
  }
}
