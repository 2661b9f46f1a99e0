import { MASK } from '../../kernel/contracts/records.js';
import { newSigningSecret } from './signing.js';

/** A signing secret with, during a rotation's grace period, the one it replaced. Stored sealed (secret settings). */
export interface SecretPair {
  secret: string;
  previousSecret?: string;
  /** ISO: until then the previous secret signs too. */
  previousValidUntil?: string;
}

/** The secrets an attempt made at `nowMs` is signed with: the current one, and the previous during its grace. */
export function signingSecrets(pair: SecretPair, nowMs = Date.now()): string[] {
  const previousValid = pair.previousSecret !== undefined && pair.previousValidUntil !== undefined && Date.parse(pair.previousValidUntil) > nowMs;
  return previousValid ? [pair.secret, pair.previousSecret!] : [pair.secret];
}

/** A new secret; the current one stays valid for `graceMs` (0: replaced at once). */
export function rotated(pair: SecretPair | undefined, graceMs: number, nowMs = Date.now()): SecretPair {
  const secret = newSigningSecret();
  if (!pair || graceMs <= 0) return { secret };
  return { secret, previousSecret: pair.secret, previousValidUntil: new Date(nowMs + graceMs).toISOString() };
}

/** What an answer shows of a pair: never a secret, only whether the previous one still signs, and until when. */
export function maskedPair(pair: SecretPair, nowMs = Date.now()): { secret: string; previousSecretValidUntil?: string } {
  const graced = signingSecrets(pair, nowMs).length > 1;
  return graced ? { secret: MASK, previousSecretValidUntil: pair.previousValidUntil! } : { secret: MASK };
}
