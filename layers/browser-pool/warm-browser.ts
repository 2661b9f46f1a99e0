import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserDriver, BrowserHandle, BrowserLaunchOptions } from '../../kernel/contracts/browser.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { BrowserSource } from './browser-source.js';
import { redactEndpoint, scrubEndpoint } from './endpoint-redaction.js';
import { BrowserDisconnectedError, BrowserPoolClosedError, RemoteBrowserUnavailableError } from './pool-errors.js';
import { settleWithin } from '../async/settle-within.js';

const TIMED_OUT = Symbol('timed out');

/** How a lost connection to BROWSER_WS_ENDPOINT is retried. */
export interface ReconnectPolicy {
  /** The remote endpoint (only ever logged redacted). */
  endpoint: string;
  /** A round of attempts gives up when the next one would start later than this after the first (ms). */
  windowMs: number;
  /** The first pause between attempts; it doubles up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
}

/**
 * The one browser every run shares: launched (or connected to, when remote) on first use, forgotten when it
 * disconnects or is killed (the next `get` launches or reconnects), and closed with a kill timer so nothing
 * survives. A remote browser is reconnected with backoff: runs asking meanwhile share the one attempt.
 */
export class WarmBrowser implements BrowserSource {
  private current: BrowserHandle | undefined;
  private launching: Promise<BrowserHandle> | undefined;
  private closed = false;
  /** Per handle, the runs to tell when it goes away. */
  private readonly watchers = new Map<BrowserHandle, Set<(error: Error) => void>>();
  /** Handles this service ended on purpose (a wedged context), so runs on them learn why. */
  private readonly killed = new WeakSet<BrowserHandle>();
  /** When the remote connection was lost, until it is back (for the reconnection log line). */
  private lostAtMs: number | undefined;
  /** Aborted by close(), so a pause between reconnection attempts does not hold up shutdown. */
  private readonly closing = new AbortController();

  constructor(
    private readonly driver: BrowserDriver,
    /** Called for each launch, so Chromium is looked for only when one is needed. */
    private readonly launchOptions: () => Promise<BrowserLaunchOptions>,
    private readonly logger: Logger,
    private readonly killAfterMs: number,
    private readonly remote?: ReconnectPolicy,
  ) {}

  async get(): Promise<BrowserHandle> {
    if (this.closed) throw new BrowserPoolClosedError();
    if (this.current?.isConnected()) return this.current;
    this.launching ??= (this.remote ? this.connect(this.remote) : this.launch()).finally(() => { this.launching = undefined; });
    return this.launching;
  }

  pid(): number | undefined {
    return this.current?.pid;
  }

  /** Nothing to do: the warm browser outlives the run. */
  async release(): Promise<void> {}

  /** The warm browser when it is up (never launches one). */
  up(): BrowserHandle | undefined {
    return this.current?.isConnected() ? this.current : undefined;
  }

  /**
   * Calls `listener` once with an error saying why, when `handle` disconnects (at once if it already has).
   * Returns the unsubscribe function.
   */
  watch(handle: BrowserHandle, listener: (error: Error) => void): () => void {
    if (!handle.isConnected()) {
      queueMicrotask(() => listener(this.lossOf(handle)));
      return () => undefined;
    }
    let set = this.watchers.get(handle);
    if (!set) this.watchers.set(handle, (set = new Set()));
    set.add(listener);
    return () => { set.delete(listener); };
  }

  /** Ends `handle` at once; it stops being the warm browser. */
  kill(handle: BrowserHandle): void {
    if (this.current === handle) this.current = undefined;
    this.killed.add(handle);
    this.logger.warn({ engine: this.driver.id, pid: handle.pid }, 'killing the browser');
    handle.kill();
  }

  /** Closes the warm browser, killing it when it does not close within the kill timer. */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    const handle = this.current ?? (await this.launching?.catch(() => undefined));
    this.current = undefined;
    if (handle) await this.end(handle);
  }

  /** Connects to the remote browser, retrying with backoff within the policy's window. */
  private async connect(policy: ReconnectPolicy): Promise<BrowserHandle> {
    const endpoint = redactEndpoint(policy.endpoint);
    const startedMs = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const handle = await this.launch();
        if (this.lostAtMs !== undefined || attempt > 1) {
          const downMs = Date.now() - (this.lostAtMs ?? startedMs);
          this.logger.info({ engine: this.driver.id, endpoint, attempts: attempt, downMs }, 'reconnected to the remote browser');
        }
        this.lostAtMs = undefined;
        return handle;
      } catch (error) {
        if (this.closed || error instanceof BrowserPoolClosedError) throw new BrowserPoolClosedError();
        const reason = scrubEndpoint(error instanceof Error ? error.message : String(error), policy.endpoint);
        const delayMs = jittered(Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1)));
        const permanent = (error as { retryable?: unknown })?.retryable === false;
        if (permanent || Date.now() + delayMs - startedMs > policy.windowMs) {
          this.logger.error({ engine: this.driver.id, endpoint, attempts: attempt, reason }, 'cannot use the remote browser');
          const tried = permanent ? '' : ` after ${attempt} attempts over ${Math.round((Date.now() - startedMs) / 1000)} s`;
          throw new RemoteBrowserUnavailableError(
            `Cannot use the remote browser at ${endpoint} (BROWSER_WS_ENDPOINT)${tried}: ${reason}`, error);
        }
        this.logger.warn({ engine: this.driver.id, endpoint, attempt, retryInMs: delayMs, reason }, 'cannot reach the remote browser; retrying');
        await sleep(delayMs, undefined, { signal: this.closing.signal }).catch(() => undefined);
        if (this.closed) throw new BrowserPoolClosedError();
      }
    }
  }

  private async launch(): Promise<BrowserHandle> {
    const options = await this.launchOptions();
    const handle = await this.driver.launch(options);
    if (this.closed) {
      await this.end(handle);
      throw new BrowserPoolClosedError();
    }
    this.current = handle;
    const endpoint = this.remote ? redactEndpoint(this.remote.endpoint) : undefined;
    this.logger.info({ engine: this.driver.id, pid: handle.pid, executable: options.executablePath, remote: endpoint }, 'browser ready');
    handle.onDisconnected(() => this.onLost(handle));
    return handle;
  }

  private onLost(handle: BrowserHandle): void {
    const runs = this.watchers.get(handle);
    this.watchers.delete(handle);
    if (runs?.size) {
      const error = this.lossOf(handle);
      for (const listener of runs) listener(error);
    }
    if (this.current !== handle) return;
    this.current = undefined;
    if (this.remote) {
      this.lostAtMs = Date.now();
      this.logger.warn(
        { engine: this.driver.id, endpoint: redactEndpoint(this.remote.endpoint), runsFailed: runs?.size ?? 0 },
        'the connection to the remote browser closed; the next run reconnects',
      );
    } else {
      this.logger.warn({ engine: this.driver.id, pid: handle.pid, runsFailed: runs?.size ?? 0 }, 'browser disconnected; the next run launches a new one');
    }
  }

  /** Why `handle` is gone, in the words a run's error shows. */
  private lossOf(handle: BrowserHandle): Error {
    if (this.closed) return new BrowserPoolClosedError();
    if (this.killed.has(handle)) {
      return new BrowserDisconnectedError('The browser was restarted during the run (a page or context stopped answering)');
    }
    if (this.remote) {
      return new BrowserDisconnectedError(
        `The connection to the remote browser at ${redactEndpoint(this.remote.endpoint)} closed during the run; the next run reconnects`);
    }
    return new BrowserDisconnectedError('The browser closed during the run (it crashed or was killed); the next run launches a new one');
  }

  private async end(handle: BrowserHandle): Promise<void> {
    const result = await settleWithin(handle.close(), this.killAfterMs, TIMED_OUT, () => undefined);
    if (result === TIMED_OUT) this.logger.warn({ pid: handle.pid }, `browser did not close within ${this.killAfterMs} ms`);
    handle.kill(); // always: a closed browser ignores it, a wedged one ends here
  }
}

/** ±20 %, so instances reconnecting to one grid do not knock in step. */
function jittered(ms: number): number {
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}
