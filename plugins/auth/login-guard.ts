import { AttemptLimiter } from './attempt-limiter.js';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
const WINDOW_MS = LOGIN_WINDOW_MS;

/** The limits, all over the same 15-minute window. */
export interface LoginLimits {
  /** Failures one address may make for one account before it gets 429. */
  perPair: number;
  /** Failures one address may make over all accounts before it gets 429. */
  perAddress: number;
  /** Failures for one account (from anywhere) after which every attempt for it is slowed down. */
  slowAfter: number;
  /** The slow-down: 1 s at `slowAfter` failures, doubling with each further one, up to this. */
  maxDelayMs: number;
}

export const LOGIN_LIMITS: LoginLimits = { perPair: 10, perAddress: 30, slowAfter: 10, maxDelayMs: 8000 };

/** An attempt let through: wait `delayMs`, check the password, then report how it went. */
export interface LoginAttempt {
  delayMs: number;
  /** The password was right: this pair starts afresh, and the attempt counts as no failure. */
  succeeded(): void | Promise<void>;
  /** The check could not be made (storage down): the attempt counts as nothing. */
  withdraw(): void | Promise<void>;
}

/** Who may try a password now: the in-process LoginGuard, or SharedLoginGuard over the storage's counters. */
export interface LoginLimiter {
  attempt(account: string, address: string): LoginVerdict | Promise<LoginVerdict>;
}

/** The slow-down for an account with `failures` recent failures: 1 s at `slowAfter`, doubling, up to `maxDelayMs`. */
export function slowDownFor(limits: LoginLimits, failures: number): number {
  if (failures < limits.slowAfter) return 0;
  return Math.min(limits.maxDelayMs, 1000 * 2 ** Math.min(failures - limits.slowAfter, 20));
}

export type LoginVerdict = { retryAfterSeconds: number } | LoginAttempt;

/**
 * Who may try a password now. An address is refused (429) after too many failures, for one account or
 * over all of them; an account is never refused as a whole, since anyone who knows its e-mail could
 * then keep its owner out: instead, attempts for it are slowed down while it is under attack, and a
 * caller from an address without failures still gets in with the right password.
 * Counts live in this process: the fallback when the storage offers no counters (see shared-login-guard.ts).
 */
export class LoginGuard implements LoginLimiter {
  private readonly pairs: AttemptLimiter;
  private readonly addresses: AttemptLimiter;
  private readonly accounts: AttemptLimiter;

  constructor(private readonly limits: LoginLimits = LOGIN_LIMITS, private readonly now = () => Date.now()) {
    this.pairs = new AttemptLimiter(limits.perPair, WINDOW_MS);
    this.addresses = new AttemptLimiter(limits.perAddress, WINDOW_MS);
    // Never refuses; it only counts, for the delay.
    this.accounts = new AttemptLimiter(Number.POSITIVE_INFINITY, WINDOW_MS);
  }

  /**
   * Refuses, or lets the attempt through and counts it as a failure at once: checking a password
   * takes time, and attempts sent in parallel must not all pass a count that none has raised yet.
   */
  attempt(account: string, address: string): LoginVerdict {
    const at = this.now();
    const pair = `${account}\n${address}`;
    const retryAfterSeconds = Math.max(this.pairs.retryAfterSeconds(pair, at), this.addresses.retryAfterSeconds(address, at));
    if (retryAfterSeconds > 0) return { retryAfterSeconds };
    const delayMs = this.delayFor(this.accounts.count(account, at));
    this.pairs.fail(pair, at);
    this.addresses.fail(address, at);
    this.accounts.fail(account, at);
    return {
      delayMs,
      // The account's other failures stay: they keep slowing down an attack that goes on.
      succeeded: () => {
        this.pairs.reset(pair);
        this.addresses.forget(address, at);
        this.accounts.forget(account, at);
      },
      withdraw: () => {
        this.pairs.forget(pair, at);
        this.addresses.forget(address, at);
        this.accounts.forget(account, at);
      },
    };
  }

  /** The slow-down for an account with `failures` recent failures. */
  delayFor(failures: number): number {
    return slowDownFor(this.limits, failures);
  }
}
