import crypto from 'node:crypto';
import type { CounterStore } from '../../kernel/contracts/storage.js';
import { LOGIN_LIMITS, LOGIN_WINDOW_MS, slowDownFor, type LoginLimiter, type LoginLimits, type LoginVerdict } from './login-guard.js';

/**
 * LoginGuard's rules over the storage's counters, so every instance sharing the storage counts the same failures:
 * a burst spread over several instances meets one limit, not one per instance. Each count lives in a fixed 15-minute
 * window from its first failure (the counters' windows), where the in-process guard slides its window.
 */
export class SharedLoginGuard implements LoginLimiter {
  constructor(private readonly counters: CounterStore, private readonly limits: LoginLimits = LOGIN_LIMITS) {}

  /**
   * Counts the attempt before the password is checked, each count within its limit atomically (attempts in
   * parallel, on any instance, cannot all pass a count none has raised yet); refuses when the pair's or the
   * address's limit is reached, taking back what it had counted.
   */
  async attempt(account: string, address: string): Promise<LoginVerdict> {
    const keys = { pair: key('pair', `${account}\n${address}`), address: key('address', address), account: key('account', account) };
    const add = (which: keyof typeof keys, delta: number, limit?: number) => this.counters.add(keys[which], delta, { windowMs: LOGIN_WINDOW_MS, limit });
    const pair = await add('pair', 1, this.limits.perPair);
    if (!pair.added) return refused(pair.resetInMs);
    const byAddress = await add('address', 1, this.limits.perAddress);
    if (!byAddress.added) {
      await add('pair', -1);
      return refused(byAddress.resetInMs);
    }
    // The account is never refused as a whole (its owner could be kept out): it is slowed down.
    const byAccount = await add('account', 1);
    return {
      delayMs: slowDownFor(this.limits, byAccount.count - 1),
      succeeded: async () => {
        await Promise.all([this.counters.reset(keys.pair), add('address', -1), add('account', -1)]);
      },
      withdraw: async () => {
        await Promise.all([add('pair', -1), add('address', -1), add('account', -1)]);
      },
    };
  }
}

const refused = (resetInMs: number) => ({ retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)) });

// Hashed: the shared store holds no e-mail address or IP address in the clear.
const key = (kind: string, value: string) => `login:${kind}:${crypto.createHash('sha256').update(value).digest('base64url')}`;
