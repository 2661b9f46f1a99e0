import crypto from 'node:crypto';

/** The header an instance sends another with a signed request (never accepted from anywhere else). */
export const PEER_HEADER = 'x-taskloom-peer';
/** What a peer request may do: relay a DevTools connection, close a session, or show its display to a VNC viewer. */
export type PeerPurpose = 'devtools' | 'close' | 'vnc';

const TTL_MS = 30_000;
/** Instances' clocks may differ by this much (NTP keeps them far closer). */
const SKEW_MS = 30_000;

interface Claims {
  purpose: PeerPurpose;
  sessionId: string;
  /** The instance it is meant for, and the one that sent it. */
  to: string;
  from: string;
  expiresAtMs: number;
  nonce: string;
}

/**
 * Instance-to-instance requests about a browser session (where the browser lives): signed with a key derived from
 * the session secret every instance shares, for one purpose, one session and one receiving instance, for 30 s, and
 * accepted once (the receiver remembers the nonces it saw). So an instance needs no sticky routing, and nothing but
 * another instance can ask the holder to relay or close.
 */
export class PeerAuth {
  private readonly seen = new Map<string, number>();

  constructor(private readonly key: Buffer, private readonly self: string, private readonly now: () => number = Date.now) {}

  /** The header value for a request to instance `to`. */
  sign(purpose: PeerPurpose, sessionId: string, to: string): string {
    const claims: Claims = { purpose, sessionId, to, from: this.self, expiresAtMs: this.now() + TTL_MS, nonce: crypto.randomBytes(12).toString('base64url') };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The sending instance's id when `header` is a fresh, unused request for this purpose and session here; else undefined. */
  verify(header: string | string[] | undefined, purpose: PeerPurpose, sessionId: string): string | undefined {
    if (typeof header !== 'string') return undefined;
    const [payload, mac, extra] = header.split('.');
    if (!payload || !mac || extra !== undefined) return undefined;
    const expected = this.mac(payload);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
    let claims: Claims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Claims;
    } catch {
      return undefined;
    }
    const now = this.now();
    this.prune(now);
    if (claims.purpose !== purpose || claims.sessionId !== sessionId || claims.to !== this.self) return undefined;
    if (!(claims.expiresAtMs > now - SKEW_MS && claims.expiresAtMs <= now + TTL_MS + SKEW_MS)) return undefined;
    if (this.seen.has(claims.nonce)) return undefined;
    this.seen.set(claims.nonce, claims.expiresAtMs + SKEW_MS);
    return claims.from;
  }

  private mac(payload: string): Buffer {
    return crypto.createHmac('sha256', this.key).update(payload).digest();
  }

  private prune(now: number): void {
    for (const [nonce, until] of this.seen) if (until <= now) this.seen.delete(nonce);
  }
}
