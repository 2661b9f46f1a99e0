/**
 * What plugins get as `app.services.browser`: the browser layer over the chosen engine (BROWSER_ENGINE). It does
 * the shared work once for every driver: one warm browser relaunched after a crash, a fresh context per run that
 * always closes, kill timers, the run memory budget, the cookie jar, the outbound rule for every browser it
 * launches. Types only.
 */

import type { BrowserCookie, ContextHandle, ContextOptions } from './browser.js';

/** Where a cookie jar keeps its cookies. */
export interface CookieStore {
  get(): Promise<BrowserCookie[]>;
  /**
   * Replaces the cookies with what `change` makes of the current ones, as one atomic step where the store is
   * shared (instances on one database): a change made elsewhere in between is never overwritten.
   */
  update(change: (current: BrowserCookie[]) => BrowserCookie[]): Promise<void>;
}

/**
 * The cookies runs keep between them. Each run that keeps cookies loads a copy into its own context and merges
 * its changes back afterwards, so parallel runs never share a browser profile.
 */
export interface CookieJar {
  /** The unexpired cookies. */
  load(): Promise<BrowserCookie[]>;
  /**
   * Merges a context's cookies back: `loaded` is what it was given, `final` what it had at the end. Changed and
   * new cookies win, cookies the run deleted go; a cookie the run left untouched keeps whatever another run
   * stored meanwhile. Expired cookies are dropped.
   */
  merge(loaded: BrowserCookie[], final: BrowserCookie[]): Promise<void>;
  /** Removes every cookie, or those of one domain (`example.com` also matches `.example.com`). Resolves to how many. */
  clear(domain?: string): Promise<number>;
}

/** What a run asks of its context: the contract's options, with cookies coming from the jar. */
export interface PoolContextOptions extends Omit<ContextOptions, 'cookies'> {
  /** Load the jar's cookies into the context and merge the context's cookies back after the run. */
  keepCookies?: boolean;
}

export interface ContextLimits {
  /** Milliseconds from the call, a launch included when one is needed; the run then ends as `timeout`. */
  timeoutMs?: number;
  /** Aborting it ends the run as `aborted`. */
  signal?: AbortSignal;
}

/**
 * How a context run ended. The context is closed (or its browser killed) by the time this resolves. `ok`: fn
 * resolved. `error`: fn threw, no browser or context could be had (Chromium not found, the remote browser
 * unreachable), or the browser went away during the run. `timeout` / `aborted`: the limit or the signal ended
 * the run first (also when the pool closed).
 */
export type ContextOutcome<T> =
  | { status: 'ok'; value: T; videoPath?: string; tracePath?: string }
  | { status: 'error' | 'timeout' | 'aborted'; error: Error | RetryableRunError; videoPath?: string; tracePath?: string };

/**
 * An `error` outcome's error when no browser could be had for the run for now: `retryable: true` says running
 * it again later may succeed, e.g. a remote grid turned the session away (`RemoteBrowserBusyError`, code
 * `REMOTE_BROWSER_BUSY`: HTTP 429/503 on the connection, or no answer in time) or could not be reached. Errors
 * without the flag, or with `retryable: false` (the endpoint speaks another protocol), are not worth retrying.
 */
export interface RetryableRunError extends Error {
  retryable: boolean;
  /** `REMOTE_BROWSER_BUSY` for a refused session. */
  code?: string;
}

/**
 * Opens a fresh isolated context, runs `fn` and always closes the context: also on error, timeout or abort.
 * `signal` (given to fn) aborts when the run is ended early; fn should stop. Never rejects.
 */
export type WithContext = <T>(
  options: PoolContextOptions,
  fn: (context: ContextHandle, signal: AbortSignal) => Promise<T>,
  limits?: ContextLimits,
) => Promise<ContextOutcome<T>>;

/** A bare DevTools-protocol connection to a browser the service launched (its loopback endpoint). */
export interface CdpConnection {
  /** Sends a command (to a target when `sessionId` is given); rejects on a protocol error or after the timeout. */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<T>;
  /** Listens to an event; returns the function that stops listening. */
  on(event: string, listener: (params: Record<string, unknown>, sessionId?: string) => void): () => void;
  close(): void;
}

/** Runs `fn` over a DevTools connection opened for it (closed after); each command answers within `timeoutMs`. */
export type WithCdp = <T>(timeoutMs: number, fn: (cdp: CdpConnection) => Promise<T>) => Promise<T>;

export interface DedicatedBrowserOptions {
  headless: boolean;
  /**
   * Which Chromium: `window`, a full one (what a window needs: the error says what to install when there is none),
   * or `any` (a headless shell first). Default: `window` unless `headless`.
   */
  chromium?: 'window' | 'any';
  /** Environment of the browser process beside what its Chromium needs, e.g. `{ DISPLAY: ':99' }`. */
  env?: Record<string, string>;
  /** Extra Chromium switches (e.g. a window size). */
  args?: string[];
  /** Milliseconds the launch may take (default 30 000). */
  launchTimeoutMs?: number;
  /** Where its runs that keep cookies read and write them; default: a jar of its own, in memory. */
  cookieStore?: (browser: { withCdp: WithCdp }) => CookieStore;
}

/**
 * One browser launched for its own purpose (the headful session), beside the warm one, held to the same
 * outbound rule. Never relaunched: when it closes or crashes it is gone.
 */
export interface DedicatedBrowser {
  readonly headless: boolean;
  /** Process id of the browser. */
  readonly pid: number | undefined;
  /** The browser's DevTools WebSocket URL, on 127.0.0.1. */
  readonly cdpEndpoint: string;
  /** Runs on this browser, as the pool's (never rejects; fails as `error` once the browser is gone). */
  withContext: WithContext;
  withCdp: WithCdp;
  isConnected(): boolean;
  /** Called once when the browser closes or crashes. */
  onDisconnected(listener: () => void): void;
  /** Ends running contexts (`aborted`), closes the browser and kills it when it does not close in time. Idempotent. */
  close(): Promise<void>;
}

export interface BrowserPool {
  /** True when its engine records Playwright traces (`ContextOptions.tracePath`); optional, absent: it does not. */
  readonly traces?: boolean;
  /**
   * On the warm browser, launched on first use (or connected to BROWSER_WS_ENDPOINT: one shared connection, or
   * one per run with BROWSER_REMOTE_MODE=per-run). The context may be a warm one, made ahead for this run alone.
   */
  withContext: WithContext;
  /** Contexts opened for runs and not yet closed (or given up with their browser); warm contexts not included. */
  openContexts(): number;
  /**
   * Warm contexts: made ahead (or being made) on the warm browser for the next runs, none taken yet (see
   * BROWSER_WARM_CONTEXTS). Optional: a pool without them has none.
   */
  warmContexts?(): number;
  /** Process id of the warm browser; undefined before the first launch, after a crash, or when remote. */
  browserPid(): number | undefined;
  readonly cookieJar: CookieJar;
  /** Launches a dedicated browser now; rejects with why when none starts. */
  launchDedicated(options: DedicatedBrowserOptions): Promise<DedicatedBrowser>;
  /** Ends running contexts (`aborted`), then closes or kills the browser and stops its network. Idempotent. */
  close(): Promise<void>;
}
