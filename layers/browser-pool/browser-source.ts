import type { BrowserHandle } from '../../kernel/contracts/browser.js';

/**
 * Where the pool's runs get their browser: the one warm browser every run shares (warm-browser.ts: launched, or
 * one connection to BROWSER_WS_ENDPOINT), or a connection of its own per run (remote-sessions.ts,
 * BROWSER_REMOTE_MODE=per-run).
 */
export interface BrowserSource {
  /** A browser for one run; rejects with why when none can be had. */
  get(): Promise<BrowserHandle>;
  /** The run is done with `handle` (its context is closed): a per-run connection ends here. Never rejects. */
  release(handle: BrowserHandle): Promise<void>;
  /** Calls `listener` once with why, when `handle` goes away during the run. Returns the unsubscribe function. */
  watch(handle: BrowserHandle, listener: (error: Error) => void): () => void;
  /** Ends `handle` at once (a context that would not close). */
  kill(handle: BrowserHandle): void;
  /** The shared browser when it is up, for warm contexts; undefined when there is none to share. */
  up(): BrowserHandle | undefined;
  /** Process id of the shared launched browser. */
  pid(): number | undefined;
  /** Ends every browser or connection it holds; `get` rejects after. */
  close(): Promise<void>;
}
