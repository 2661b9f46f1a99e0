/**
 * The browser contract's version (`major.minor`, see provider.ts), and the oldest a driver may be built for.
 * 1.1: `ContextHandle.addCookies` (optional); a connection error may carry `busy: true` (see `BrowserDriver.launch`).
 * 1.2: `BrowserDriver.traces` and `ContextOptions.tracePath` (optional); `BrowserPage.devtools` (optional): a DevTools
 *      session on one page (the live view's screencast and input).
 * 1.3: optional `BrowserPage` members for more of the web: `setChecked`, `selectOption`, `clickAs`, `dragAndDrop`,
 *      `reload`, `navigations` with `waitForNavigation`, `waitForNetworkIdle`, and `frame` (a document inside iframes);
 *      `setInputFiles` and `download`, with `ContextOptions.acceptDownloads` (files in and out).
 * 1.4: `ContextOptions.storageState` and `ContextHandle.storageState` (optional): a login's cookies and local storage
 *      read from one context and given to another (named browser states).
 */
export const BROWSER_CONTRACT_VERSION = '1.4';
export const BROWSER_CONTRACT_ACCEPTS = '1.0';

/**
 * The browser-engine capability. A provider (Playwright, Puppeteer, ...) implements small
 * primitives over one product; the shared work (one warm browser, relaunch after a crash, a fresh
 * context per run, kill timers, the cookie jar) lives once in kernel/browser/.
 * Everything a page does runs in the browser, never in the service's process.
 */
export interface BrowserDriver {
  readonly id: string;
  /** True when its contexts record Playwright traces (`ContextOptions.tracePath`, contract 1.2); absent: they do not. */
  readonly traces?: boolean;
  /**
   * Launches a local browser, or connects when `wsEndpoint` is given. A failed connection is retried with
   * backoff by the kernel, unless the error carries `retryable: false` (trying again cannot help: the
   * endpoint speaks a protocol this engine does not). Errors never quote `wsEndpoint` (it may hold a token).
   * An error carrying `busy: true` (contract 1.1) says the endpoint turned the connection away for now: it
   * answered the WebSocket upgrade (or the DevTools `/json/version` request) with HTTP 429 or 503, or did not
   * answer within `timeoutMs`; a browser grid at capacity does this. `status` then holds the HTTP status, if any.
   */
  launch(options: BrowserLaunchOptions): Promise<BrowserHandle>;
  /**
   * The engine's own downloaded Chromium when it exists on disk, else undefined. Chromium detection
   * tries it after BROWSER_EXECUTABLE_PATH and before the PATH. Async: an engine loads its library lazily.
   */
  installedExecutablePath?(): Promise<string | undefined>;
  /**
   * A headless Chromium shipped inside an npm package the provider can use, unpacked into the data directory
   * on first call and reused after. Tried last, after the PATH. Undefined when the package is not installed
   * (an optional dependency left out); rejects, with a message saying why, when it is installed but cannot be
   * used here (another platform, the unpacking failed).
   */
  packagedChromium?(): Promise<PackagedChromium | undefined>;
}

/** A Chromium that came inside an npm package (see `BrowserDriver.packagedChromium`). */
export interface PackagedChromium {
  executablePath: string;
  /** Environment it needs to start (its own shared libraries and fonts). */
  env: Record<string, string>;
  /** The package and its version, e.g. `@sparticuz/chromium 147.0.0`, for the log and error messages. */
  origin: string;
  /** A headless shell: it cannot show a window. */
  headlessOnly: boolean;
}

export interface BrowserLaunchOptions {
  /** Chromium to launch (ignored when connecting). */
  executablePath?: string;
  /** Connect to this remote browser (Playwright server or DevTools endpoint) instead of launching. */
  wsEndpoint?: string;
  headless: boolean;
  /** Extra Chromium switches. */
  args: string[];
  /** Environment of the browser process (e.g. DISPLAY for a headful session). */
  env?: Record<string, string>;
  /** Milliseconds to wait for the launch or connection. */
  timeoutMs: number;
}

export interface BrowserHandle {
  /** Process id of a launched browser; undefined when connected to a remote one. */
  readonly pid?: number;
  isConnected(): boolean;
  /** Called once when the browser closes or crashes. */
  onDisconnected(listener: () => void): void;
  newContext(options: ContextOptions): Promise<ContextHandle>;
  /** Graceful close. May hang on a wedged browser: callers race it with `kill`. */
  close(): Promise<void>;
  /** Ends a launched browser's process tree at once (SIGKILL); disconnects from a remote one. */
  kill(): void;
  /** The DevTools WebSocket URL of a launched browser (loopback only), when the engine exposes it. */
  cdpEndpoint?(): string | undefined;
}

/** A cookie as the engines exchange it (Playwright's shape, which Puppeteer maps onto). */
export interface BrowserCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Epoch seconds; -1 for a session cookie. */
  expires: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** A context's cookies and each origin's local storage (contract 1.4), as Playwright's `storageState` has them. */
export interface BrowserStorageState {
  cookies: BrowserCookie[];
  /** `origin` as `location.origin` writes it (`https://example.com`, `http://127.0.0.1:8080`). */
  origins: Array<{ origin: string; localStorage: Array<{ name: string; value: string }> }>;
}

export interface ContextOptions {
  viewport?: { width: number; height: number };
  userAgent?: string;
  proxy?: { server: string; username?: string; password?: string };
  /** Cookies loaded into the context before the first page opens. */
  cookies?: BrowserCookie[];
  /**
   * Record a video (webm) of the context's first page into this directory; `close()` resolves to its path.
   * `newPage` rejects when no ffmpeg can be started (the message says how to install one).
   */
  recordVideoDir?: string;
  /**
   * Record a Playwright trace (DOM snapshots, network, console, a screenshot per action) of the context into this
   * zip file, written as the context closes; `close()` then resolves to it as `tracePath`. Only for a driver with
   * `traces: true`; others ignore it.
   */
  tracePath?: string;
  /**
   * A response announcing more bytes than this (its Content-Length) for a resource a page keeps whole in memory
   * (document, style sheet, script, image, font, fetch or XHR; not media, which streams) is reported to
   * `onFailure` as it arrives. Downloads are not such resources (see `acceptDownloads`).
   */
  maxResponseBytes?: number;
  /**
   * Contract 1.4: cookies (beside `cookies`) and local storage per origin, in place before the first page opens. Only for a
   * driver whose contexts have `storageState()`: the caller checks that member, others would ignore it.
   */
  storageState?: BrowserStorageState;
  /** Keep the files pages download, for `BrowserPage.download` (contract 1.3); without it a context refuses them. */
  acceptDownloads?: boolean;
  /**
   * Called when the context can no longer serve its run: the caller ends the run and closes the context. A
   * provider that cannot tell never calls it (a crashed page then shows as failing actions or the run's timeout).
   */
  onFailure?(failure: ContextFailure): void;
}

/** Why a context can no longer serve its run (see `ContextOptions.onFailure`). */
export type ContextFailure =
  /** A page's renderer process ended: it crashed, ran out of memory, or was ended for using too much. */
  | { kind: 'page-crashed' }
  /** A response over `maxResponseBytes`; `url` as requested (the caller shortens it for messages). */
  | { kind: 'response-too-large'; url: string; bytes: number };

export interface ContextHandle {
  newPage(): Promise<BrowserPage>;
  cookies(): Promise<BrowserCookie[]>;
  /**
   * Adds cookies to the open context, as `ContextOptions.cookies` does at creation; pages navigated after it
   * send them (contract 1.1, optional: without it a context is only ever given cookies when it is made).
   */
  addCookies?(cookies: BrowserCookie[]): Promise<void>;
  /**
   * Contract 1.4, optional: the context's cookies and the local storage of every origin its pages and their frames
   * show now. With it the driver also applies `ContextOptions.storageState`.
   */
  storageState?(): Promise<BrowserStorageState>;
  /**
   * Closes the context and its pages. Resolves to the recorded video's path when recording.
   * May hang on a wedged renderer: callers race it with a timer and kill the browser.
   */
  close(): Promise<{ videoPath?: string; tracePath?: string }>;
}

/** One page. Timeouts are milliseconds; a missed one rejects with an error naming what was awaited. */
export interface BrowserPage {
  goto(url: string, timeoutMs: number): Promise<void>;
  click(selector: string, timeoutMs: number): Promise<void>;
  hover(selector: string, timeoutMs: number): Promise<void>;
  /** Types `text` into the element (focusing it first), key by key. */
  type(selector: string, text: string, timeoutMs: number): Promise<void>;
  /** Presses a key (`Enter`, `Control+A`, ...), on `selector` when given. */
  press(key: string, selector: string | undefined, timeoutMs: number): Promise<void>;
  /** Resolves once an element matching `selector` is visible. */
  waitForSelector(selector: string, timeoutMs: number): Promise<void>;
  /**
   * Runs `body` as the body of an async function inside the page, with `args` as its one
   * parameter named `args`, and resolves to its JSON-serialisable return value.
   */
  evaluate(body: string, args: Record<string, unknown>): Promise<unknown>;
  screenshot(options: { fullPage: boolean; type: 'png' | 'jpeg'; quality?: number }): Promise<Buffer>;
  url(): string;
  title(): Promise<string>;
  content(): Promise<string>;
  /**
   * Opens a DevTools (CDP) session attached to this page (contract 1.2, optional): the live view streams it with
   * `Page.startScreencast` and drives it with the `Input` domain. Each call opens a session of its own; the caller
   * detaches it. Rejects when the page is closed.
   */
  devtools?(): Promise<PageDevtools>;

  // Files in and out (contract 1.3, both optional: the upload and download actions fail without them).
  /** Gives the `<input type=file>` matching `selector` these files, as a person choosing them would. */
  setInputFiles?(selector: string, files: Array<{ name: string; mimeType: string; buffer: Buffer }>, timeoutMs: number): Promise<void>;
  /**
   * Clicks `selector` and resolves once the download it starts has arrived whole (the context has `acceptDownloads`):
   * `path` is a local file the caller now owns (moves or deletes), `name` the file name the site suggested.
   */
  download?(selector: string, timeoutMs: number): Promise<{ name: string; path: string }>;

  // Contract 1.3, all optional (a runner without them fails the action, saying the engine cannot do it). The
  // selector members work on the first match once visible, and time out as `click` does.
  /** Clicks a checkbox or radio button when it is not already `checked`; rejects when it is not so afterwards. */
  setChecked?(selector: string, checked: boolean, timeoutMs: number): Promise<void>;
  /** Selects, in a `<select>`, the option whose value is `option`, else the first whose label is (trimmed). */
  selectOption?(selector: string, option: string, timeoutMs: number): Promise<void>;
  /** Double-clicks (a `dblclick` event follows two clicks) or clicks with the right button (`contextmenu`). */
  clickAs?(selector: string, how: 'double' | 'right', timeoutMs: number): Promise<void>;
  /** Drags the first match of `selector` onto that of `target` with the mouse (HTML5 drag and drop too). */
  dragAndDrop?(selector: string, target: string, timeoutMs: number): Promise<void>;
  /** Reloads the page and waits for its `load` event. */
  reload?(timeoutMs: number): Promise<void>;
  /** How many times the main frame navigated (a new document, or a same-document URL change) since the page opened. */
  navigations?(): number;
  /** Resolves once `navigations()` exceeds `after` and the main frame's document has loaded. */
  waitForNavigation?(after: number, timeoutMs: number): Promise<void>;
  /** Resolves once the page has had no request in flight for `idleMs`. */
  waitForNetworkIdle?(idleMs: number, timeoutMs: number): Promise<void>;
  /**
   * The document inside an iframe: `chain[0]` selects an iframe of this page, each next one an iframe inside the
   * previous one's document (any origin). Waits for each to be attached, within `timeoutMs` in all.
   */
  frame?(chain: readonly string[], timeoutMs: number): Promise<BrowserFrame>;
}

/** A document inside iframes (see `BrowserPage.frame`): what a page does, less what only a whole page can. */
export type BrowserFrame = Omit<BrowserPage, 'goto' | 'screenshot' | 'devtools' | 'reload' | 'navigations' | 'waitForNavigation' | 'waitForNetworkIdle' | 'frame'>;

/** A DevTools session on one page (see `BrowserPage.devtools`). */
export interface PageDevtools {
  /** Sends a DevTools command and resolves to its result; rejects with the protocol's error. */
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): void;
  off(event: string, listener: (payload: unknown) => void): void;
  /** Ends the session (its screencast with it). Never rejects. */
  detach(): Promise<void>;
}
