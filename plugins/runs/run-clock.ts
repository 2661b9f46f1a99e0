import { ContextTimeoutError } from '../../layers/browser-pool/pool-errors.js';

/**
 * The run's time limit for a run that may wait for a person: the time it waits does not count. Aborting `signal`
 * with a ContextTimeoutError when the limit is spent (the run ends `timeout`, as with the pool's own timer); it
 * follows `outer` (cancel, shutdown) too.
 */
export class RunClock {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private leftMs: number;
  private startedAt = 0;
  private held = 0;

  constructor(private readonly timeoutMs: number, outer: AbortSignal) {
    this.leftMs = timeoutMs;
    const follow = () => this.controller.abort(outer.reason);
    if (outer.aborted) follow();
    else outer.addEventListener('abort', follow, { once: true });
    this.start();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the run ended because its time was spent. */
  get expired(): boolean {
    return this.controller.signal.reason instanceof ContextTimeoutError;
  }

  /** Stops the clock while a person has the page (nested holds count once). */
  hold(): void {
    if (this.held++ > 0 || this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.leftMs -= Date.now() - this.startedAt;
  }

  release(): void {
    if (--this.held > 0 || this.controller.signal.aborted) return;
    this.start();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private start(): void {
    this.startedAt = Date.now();
    this.timer = setTimeout(() => this.controller.abort(new ContextTimeoutError(this.timeoutMs)), Math.max(0, this.leftMs));
  }
}
