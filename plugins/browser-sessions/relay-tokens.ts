import crypto from 'node:crypto';

/** How long a token in a `wsEndpoint` stays usable. */
export const TOKEN_TTL_MS = 60_000;

/**
 * Short-lived, single-use tokens for the DevTools relay URL: a client library that cannot send headers
 * still proves it asked through the API. Only a hash is kept, and a token is spent when presented.
 */
export class RelayTokens {
  private readonly tokens = new Map<string, { sessionId: string; expiresAt: number }>();

  constructor(private readonly ttlMs = TOKEN_TTL_MS, private readonly now: () => number = Date.now) {}

  issue(sessionId: string): string {
    this.prune();
    const token = crypto.randomBytes(32).toString('base64url');
    this.tokens.set(hash(token), { sessionId, expiresAt: this.now() + this.ttlMs });
    return token;
  }

  /** True when `token` was issued for `sessionId` and has neither expired nor been presented before. */
  consume(token: string, sessionId: string): boolean {
    const key = hash(token);
    const entry = this.tokens.get(key);
    this.tokens.delete(key);
    return entry !== undefined && entry.sessionId === sessionId && entry.expiresAt > this.now();
  }

  /** Forgets the tokens of a closed session. */
  revoke(sessionId: string): void {
    for (const [key, entry] of this.tokens) if (entry.sessionId === sessionId) this.tokens.delete(key);
  }

  private prune(): void {
    const now = this.now();
    for (const [key, entry] of this.tokens) if (entry.expiresAt <= now) this.tokens.delete(key);
  }
}

// A lookup by hash: the map never holds a usable token, and timing reveals nothing about one.
const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
