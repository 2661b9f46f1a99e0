import type { BrowserDriver, BrowserHandle, BrowserLaunchOptions } from '../contracts/browser.js';
import type { Logger } from '../contracts/logger.js';
import { BrowserPoolClosedError } from './pool-errors.js';
import { settleWithin } from './settle-within.js';

const TIMED_OUT = Symbol('timed out');

/**
 * The one browser every run shares: launched on first use, forgotten when it disconnects or is
 * killed (the next `get` launches a new one), and closed with a kill timer so nothing survives.
 */
export class WarmBrowser {
  private current: BrowserHandle | undefined;
  private launching: Promise<BrowserHandle> | undefined;
  private closed = false;

  constructor(
    private readonly driver: BrowserDriver,
    /** Called for each launch, so Chromium is looked for only when one is needed. */
    private readonly launchOptions: () => Promise<BrowserLaunchOptions>,
    private readonly logger: Logger,
    private readonly killAfterMs: number,
  ) {}

  async get(): Promise<BrowserHandle> {
    if (this.closed) throw new BrowserPoolClosedError();
    if (this.current?.isConnected()) return this.current;
    this.launching ??= this.launch().finally(() => { this.launching = undefined; });
    return this.launching;
  }

  pid(): number | undefined {
    return this.current?.pid;
  }

  /** Ends `handle` at once; it stops being the warm browser. */
  kill(handle: BrowserHandle): void {
    if (this.current === handle) this.current = undefined;
    this.logger.warn({ engine: this.driver.id, pid: handle.pid }, 'killing the browser');
    handle.kill();
  }

  /** Closes the warm browser, killing it when it does not close within the kill timer. */
  async close(): Promise<void> {
    this.closed = true;
    const handle = this.current ?? (await this.launching?.catch(() => undefined));
    this.current = undefined;
    if (handle) await this.end(handle);
  }

  private async launch(): Promise<BrowserHandle> {
    const options = await this.launchOptions();
    const handle = await this.driver.launch(options);
    if (this.closed) {
      await this.end(handle);
      throw new BrowserPoolClosedError();
    }
    this.current = handle;
    this.logger.info(
      { engine: this.driver.id, pid: handle.pid, executable: options.executablePath, remote: Boolean(options.wsEndpoint) },
      'browser ready',
    );
    handle.onDisconnected(() => {
      if (this.current !== handle) return;
      this.current = undefined;
      this.logger.warn({ engine: this.driver.id, pid: handle.pid }, 'browser disconnected; the next run launches a new one');
    });
    return handle;
  }

  private async end(handle: BrowserHandle): Promise<void> {
    const result = await settleWithin(handle.close(), this.killAfterMs, TIMED_OUT, () => undefined);
    if (result === TIMED_OUT) this.logger.warn({ pid: handle.pid }, `browser did not close within ${this.killAfterMs} ms`);
    handle.kill(); // always: a closed browser ignores it, a wedged one ends here
  }
}
