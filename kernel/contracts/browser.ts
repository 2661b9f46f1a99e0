export const BROWSER_CONTRACT_VERSION = 1;

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

export interface ContextOptions {
  viewport?: { width: number; height: number };
  userAgent?: string;
  proxy?: { server: string; username?: string; password?: string };
  cookies?: BrowserCookie[];
  /** Directory to write a video recording of the context into, when recording. */
  recordVideoDir?: string;
}

/** One page of an isolated browser context. Everything here runs in the browser, not in the service. */
export interface BrowserPage {
  goto(url: string, timeoutMs: number): Promise<void>;
  click(selector: string, timeoutMs: number): Promise<void>;
  hover(selector: string, timeoutMs: number): Promise<void>;
  type(selector: string, text: string, timeoutMs: number): Promise<void>;
  press(key: string, selector: string | undefined, timeoutMs: number): Promise<void>;
  waitForSelector(selector: string, timeoutMs: number): Promise<void>;
  /** Runs `body` as an async function body inside the page and resolves to its JSON-able return value. */
  evaluate(body: string, args: Record<string, unknown>, timeoutMs: number): Promise<unknown>;
  screenshot(options: { fullPage: boolean; type: 'png' | 'jpeg' }): Promise<Buffer>;
  url(): string;
  title(): Promise<string>;
  content(): Promise<string>;
}

export interface BrowserContextHandle {
  page(): Promise<BrowserPage>;
  cookies(): Promise<BrowserCookie[]>;
  /** Always safe to call, also twice and after a crash; ends in a forced kill on timeout. */
  close(): Promise<void>;
}

/** The browser-engine capability: one warm browser, a fresh isolated context per run. */
export interface BrowserEngine {
  readonly id: string;
  newContext(options: ContextOptions): Promise<BrowserContextHandle>;
  /** Number of contexts currently open (leak checks and metrics). */
  openContexts(): number;
  close(): Promise<void>;
}
