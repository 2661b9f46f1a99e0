import crypto from 'node:crypto';

/** How long a token in a `wsEndpoint` stays usable. */
export const TOKEN_TTL_MS = 60_000;

const VERSION = 1;
const NONCE_BYTES = 16;
const MAC_BYTES = 32;
// version (1) | expiry, epoch ms (8) | nonce (16) | HMAC-SHA256 (32): 76 characters of base64url.
const TOKEN_BYTES = 1 + 8 + NONCE_BYTES + MAC_BYTES;
const MAX_REMEMBERED = 100_000;

/**
 * Short-lived, single-use tokens for the DevTools relay URL: a client library that cannot send headers still proves
 * it asked through the API. A token carries its expiry and is signed (HMAC) for its session with a key every
 * instance sharing the storage derives alike, so any instance verifies it without asking the one that issued it.
 * Each instance remembers the tokens presented to it (only their hashes); across instances, the relay also claims
 * each token in the storage (`claimKey`), so a token opens one connection in all.
 */
export class RelayTokens {
  private readonly spent = new Map<string, number>();
  private readonly revoked = new Map<string, number>();

  constructor(
    private readonly ttlMs = TOKEN_TTL_MS,
    private readonly now: () => number = Date.now,
    private readonly key: Buffer = crypto.randomBytes(32),
  ) {}

  issue(sessionId: string): string {
    const head = Buffer.alloc(1 + 8);
    head.writeUInt8(VERSION, 0);
    head.writeBigUInt64BE(BigInt(this.now() + this.ttlMs), 1);
    const signed = Buffer.concat([head, crypto.randomBytes(NONCE_BYTES)]);
    return Buffer.concat([signed, this.mac(signed, sessionId)]).toString('base64url');
  }

  /**
   * True when `token` was issued (by any instance with the same key) for `sessionId`, has not expired, was not
   * presented here before, and its session was not revoked here after it was issued. Presenting it spends it.
   */
  consume(token: string, sessionId: string): boolean {
    const now = this.now();
    this.prune(now);
    const hashed = hash(token);
    if (this.spent.has(hashed)) return false;
    const raw = Buffer.from(token, 'base64url');
    if (raw.length !== TOKEN_BYTES || raw.readUInt8(0) !== VERSION) return false;
    const expiresAt = Number(raw.readBigUInt64BE(1));
    this.spend(hashed, now);
    const signed = raw.subarray(0, TOKEN_BYTES - MAC_BYTES);
    if (!crypto.timingSafeEqual(raw.subarray(TOKEN_BYTES - MAC_BYTES), this.mac(signed, sessionId))) return false;
    const revokedAt = this.revoked.get(sessionId);
    return expiresAt > now && !(revokedAt !== undefined && expiresAt - this.ttlMs <= revokedAt);
  }

  /** Voids the tokens issued so far for a closed session (on this instance: others find the session closed). */
  revoke(sessionId: string): void {
    this.revoked.set(sessionId, this.now());
  }

  private mac(signed: Buffer, sessionId: string): Buffer {
    return crypto.createHmac('sha256', this.key).update(signed).update(sessionId).digest();
  }

  /** Remembered for a token's lifetime (instances' clocks may differ a little: twice that); the oldest go past a bound. */
  private spend(hashed: string, now: number): void {
    this.spent.set(hashed, now + 2 * this.ttlMs);
    // Made-up tokens cost memory too: past the bound the oldest go (the storage claim still spends them).
    if (this.spent.size > MAX_REMEMBERED) this.spent.delete(this.spent.keys().next().value!);
  }

  private prune(now: number): void {
    for (const [key, expiresAt] of this.spent) if (expiresAt <= now) this.spent.delete(key);
    for (const [id, at] of this.revoked) if (at + this.ttlMs <= now) this.revoked.delete(id);
  }
}

/** The storage claim that spends `token` for every instance: the first to claim it relays the connection. */
export const claimKey = (token: string) => `relayToken:${hash(token)}`;

// Only hashes are kept: the maps and the store never hold a usable token.
const hash = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');
