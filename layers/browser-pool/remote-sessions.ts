import type { BrowserDriver, BrowserHandle, BrowserLaunchOptions } from '../../kernel/contracts/browser.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { BrowserSource } from './browser-source.js';
import { redactEndpoint, scrubEndpoint } from './endpoint-redaction.js';
import { BrowserDisconnectedError, BrowserPoolClosedError, RemoteBrowserBusyError, RemoteBrowserUnavailableError } from './pool-errors.js';
import { settleWithin } from '../async/settle-within.js';

const TIMED_OUT = Symbol('timed out');

/**
 * BROWSER_REMOTE_MODE=per-run: each run connects to BROWSER_WS_ENDPOINT on its own (one grid session) and
 * disconnects when its context is closed, so a grid's admission control, queueing and per-session time limits
 * apply to every run. A connection is tried once: a grid turning it away (HTTP 429 or 503, no answer in time)
 * fails the run at once with a retryable RemoteBrowserBusyError, for the queue to try again later.
 */
export class RemoteSessions implements BrowserSource {
  private readonly open = new Set<BrowserHandle>();
  private closed = false;
  private readonly endpoint: string;

  constructor(
    private readonly driver: BrowserDriver,
    private readonly launchOptions: () => Promise<BrowserLaunchOptions>,
    private readonly logger: Logger,
    private readonly killAfterMs: number,
    private readonly rawEndpoint: string,
  ) {
    this.endpoint = redactEndpoint(rawEndpoint);
  }

  async get(): Promise<BrowserHandle> {
    if (this.closed) throw new BrowserPoolClosedError();
    const options = await this.launchOptions();
    let handle: BrowserHandle;
    try {
      handle = await this.driver.launch(options);
    } catch (error) {
      throw this.explain(error, options.timeoutMs);
    }
    if (this.closed) {
      await this.end(handle);
      throw new BrowserPoolClosedError();
    }
    this.open.add(handle);
    this.logger.debug({ engine: this.driver.id, endpoint: this.endpoint, sessions: this.open.size }, 'remote browser session opened');
    return handle;
  }

  async release(handle: BrowserHandle): Promise<void> {
    if (!this.open.delete(handle)) return;
    await this.end(handle);
  }

  watch(handle: BrowserHandle, listener: (error: Error) => void): () => void {
    let watching = true;
    // A handle serves one run: the flag stands for removing the listener (the contract has no way to).
    handle.onDisconnected(() => {
      if (!watching || !this.open.has(handle)) return;
      this.open.delete(handle);
      listener(this.lossOf());
    });
    return () => { watching = false; };
  }

  kill(handle: BrowserHandle): void {
    this.open.delete(handle);
    handle.kill();
  }

  up(): undefined {
    return undefined; // nothing is shared between runs
  }

  pid(): undefined {
    return undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    const left = [...this.open];
    this.open.clear();
    await Promise.all(left.map((handle) => this.end(handle)));
  }

  /** The run's error for a connection that failed: busy (retryable), unreachable (retryable) or unusable. */
  private explain(error: unknown, timeoutMs: number): Error {
    if (this.closed) return new BrowserPoolClosedError();
    const reason = scrubEndpoint(error instanceof Error ? error.message : String(error), this.rawEndpoint);
    const busy = error as { busy?: unknown; status?: unknown };
    if (busy?.busy === true) {
      const status = typeof busy.status === 'number' ? busy.status : undefined;
      this.logger.warn({ engine: this.driver.id, endpoint: this.endpoint, status, timeoutMs }, 'the remote browser turned a session away; the run can be retried');
      return new RemoteBrowserBusyError(
        `The remote browser at ${this.endpoint} (BROWSER_WS_ENDPOINT) turned the run's session away: ${reason}; the run can be retried later`,
        status, error);
    }
    const permanent = (error as { retryable?: unknown })?.retryable === false;
    this.logger.error({ engine: this.driver.id, endpoint: this.endpoint, reason }, 'cannot use the remote browser');
    return new RemoteBrowserUnavailableError(`Cannot use the remote browser at ${this.endpoint} (BROWSER_WS_ENDPOINT): ${reason}`, error, !permanent);
  }

  private lossOf(): Error {
    if (this.closed) return new BrowserPoolClosedError();
    return new BrowserDisconnectedError(`The connection to the remote browser at ${this.endpoint} closed during the run (its session ended)`);
  }

  private async end(handle: BrowserHandle): Promise<void> {
    const result = await settleWithin(handle.close(), this.killAfterMs, TIMED_OUT, () => undefined);
    if (result === TIMED_OUT) this.logger.warn({ endpoint: this.endpoint }, `a remote browser session did not close within ${this.killAfterMs} ms`);
    handle.kill(); // disconnects whatever is left
  }
}
