/**
 * Counts failed logins per key (an IP, an account) in a sliding window. Successful attempts are
 * not counted, so a user who types the password right is never slowed down by this.
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly maxFailures: number, private readonly windowMs: number) {}

  /** Seconds until `key` may try again, or 0 when it may try now. */
  retryAfterSeconds(key: string, now = Date.now()): number {
    const recent = this.recent(key, now);
    if (recent.length < this.maxFailures) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
  }

  fail(key: string, now = Date.now()): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.failures.set(key, recent);
    if (this.failures.size > 10_000) this.prune(now);
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
