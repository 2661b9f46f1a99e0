/**
 * Counts failed logins per key (an address, an account, a pair of both) in a sliding window.
 * Successful attempts are not counted.
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(readonly maxFailures: number, readonly windowMs: number) {}

  /** Seconds until `key` may try again, or 0 when it may try now. */
  retryAfterSeconds(key: string, now = Date.now()): number {
    const recent = this.recent(key, now);
    if (recent.length < this.maxFailures) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
  }

  /** Failures of `key` within the window. */
  count(key: string, now = Date.now()): number {
    return this.recent(key, now).length;
  }

  fail(key: string, now = Date.now()): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.failures.set(key, recent);
    if (this.failures.size > 10_000) this.prune(now);
  }

  /** Takes back one failure recorded at `at` (an attempt counted before its outcome was known). */
  forget(key: string, at: number): void {
    const all = this.failures.get(key);
    const index = all?.indexOf(at) ?? -1;
    if (index >= 0) all!.splice(index, 1);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => at > now - this.windowMs);
  }

  private prune(now: number): void {
    for (const key of this.failures.keys()) {
      if (this.recent(key, now).length === 0) this.failures.delete(key);
    }
  }
}
