import crypto from 'node:crypto';
import type { DedicatedBrowser } from '../../kernel/contracts/browser-pool.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import { Errors } from '../../kernel/errors.js';
import type { KernelServices } from '../../kernel/services.js';
import type { BrowserSession } from './decorators.js';
import { SCREEN_SIZE } from './display-stack.js';
import { windowCookieStore } from './window-cookies.js';
import { withWindowPage } from './window-page.js';
import { windowStorageState } from './window-state.js';

export interface ManagedBrowserDeps {
  services: KernelServices;
  /** The virtual display (USE_NOVNC), once it serves; undefined: the browser inherits the service's DISPLAY. */
  display(): Promise<string | undefined>;
  logger: Logger;
}

interface Live {
  session: BrowserSession;
  browser: DedicatedBrowser;
}

/** A headful attempt on a broken display fails within about a second; a healthy one starts within this. */
const HEADFUL_LAUNCH_MS = 20_000;

/**
 * The one managed browser of the headful session: launched on demand (headful first, headless when no
 * display works), shared by `POST /api/browser/open`, runs in mode `headful` and runs given its sessionId.
 * When it closes or crashes its session ends; the next demand launches a new one under a new id.
 */
export class ManagedBrowser {
  private live: Live | undefined;
  private opening: Promise<BrowserSession> | undefined;
  private closed = false;

  constructor(private readonly deps: ManagedBrowserDeps) {}

  /** The open session, if any. */
  current(): BrowserSession | undefined {
    return this.live?.browser.isConnected() ? this.live.session : undefined;
  }

  /** The open session, or a new one: headful tried first unless `headless`. Throws UPSTREAM_ERROR when no browser starts. */
  open(headless: boolean): Promise<BrowserSession> {
    if (this.closed) return Promise.reject(Errors.SHUTTING_DOWN());
    const open = this.current();
    if (open) return Promise.resolve(open);
    this.opening ??= this.launch(headless).finally(() => { this.opening = undefined; });
    return this.opening;
  }

  /** Ends the session `id`; false when no such session is open. */
  async closeSession(id: string): Promise<boolean> {
    const live = this.live;
    if (!live || live.session.id !== id || !live.browser.isConnected()) return false;
    this.live = undefined;
    await live.browser.close();
    this.deps.logger.info({ sessionId: id }, 'browser session closed');
    return true;
  }

  /** Shutdown: ends the session and refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    await this.opening?.catch(() => undefined);
    const live = this.live;
    this.live = undefined;
    await live?.browser.close();
  }

  private async launch(headless: boolean): Promise<BrowserSession> {
    const { logger } = this.deps;
    const browser = await this.launchBrowser(headless).catch((error: unknown) => {
      throw Errors.UPSTREAM_ERROR({ reason: `The browser could not start: ${error instanceof Error ? error.message : String(error)}` }, { cause: error });
    });
    if (this.closed) {
      await browser.close();
      throw Errors.SHUTTING_DOWN();
    }
    const id = `bs_${crypto.randomBytes(12).toString('base64url')}`;
    const { cdpEndpoint, withCdp } = browser;
    const session: BrowserSession = {
      id,
      headless: browser.headless,
      pid: browser.pid,
      withContext: (options, fn, limits) => browser.withContext(options, fn, limits),
      withWindowPage: (fn, timeoutMs) => withWindowPage(withCdp, timeoutMs, fn),
      storageState: () => windowStorageState(withCdp),
      cdpEndpoint: () => (browser.isConnected() ? cdpEndpoint : undefined),
    };
    this.live = { session, browser };
    browser.onDisconnected(() => {
      if (this.live?.browser !== browser) return;
      this.live = undefined;
      logger.warn({ sessionId: id, pid: browser.pid }, 'the managed browser went away; its session ended');
      void browser.close(); // ends the pool of a crashed browser
    });
    logger.info({ sessionId: id, pid: browser.pid, headless: browser.headless }, 'browser session opened');
    return session;
  }

  private async launchBrowser(headless: boolean): Promise<DedicatedBrowser> {
    const { services, logger } = this.deps;
    // A window needs a full Chromium (without one the error says what to install): the headless fallback keeps it.
    const common = { chromium: headless ? 'any' as const : 'window' as const, cookieStore: windowCookieStore };
    if (!headless) {
      const display = await this.deps.display();
      try {
        return await services.browser.launchDedicated({
          ...common, headless: false, env: display ? { DISPLAY: display } : {}, launchTimeoutMs: HEADFUL_LAUNCH_MS,
          // The display has no window manager to maximise it: fill the virtual screen from its corner.
          args: ['--window-position=0,0', `--window-size=${SCREEN_SIZE.width},${SCREEN_SIZE.height}`],
        });
      } catch (error) {
        logger.warn({ reason: error instanceof Error ? error.message : String(error), display: display ?? 'inherited' },
          'a headful browser could not start (is a display available? set USE_NOVNC=true or DISPLAY); starting it headless');
      }
    }
    return services.browser.launchDedicated({ ...common, headless: true });
  }
}
