import type { BrowserStorageState } from '../../kernel/contracts/browser.js';
import type { WithContext } from '../../kernel/contracts/browser-pool.js';
import type { Socket } from 'node:net';
import type { VncRoute } from './vnc-gateway.js';
import type { InspectablePage } from './window-page.js';

// The decorators of the headful plugin (fastify-plugin, name 'taskloom-headful'), typed for every plugin.

export type { InspectablePage } from './window-page.js';
export type { VncRoute } from './vnc-gateway.js';

/** The Headful status object of the interface. */
export interface HeadfulStatus {
  useNovnc: boolean;
  /** Only when USE_NOVNC is on. */
  novncPort?: number;
  /** Only when USE_NOVNC is on: Xvfb, x11vnc and websockify all run. */
  isRunning?: boolean;
}

/** One open session of the managed browser (there is at most one at a time). */
export interface BrowserSession {
  /** `bs_…`, the `sessionId` of `POST /api/browser/open`. */
  readonly id: string;
  /** True when the browser runs headless (asked for, or no display worked). */
  readonly headless: boolean;
  /** Process id of the browser. */
  readonly pid: number | undefined;
  /**
   * The kernel pool's `withContext`, in this browser: a fresh context, always closed, never rejects.
   * `keepCookies` takes the cookies of the browser's own window (where a person logs in over VNC) and
   * writes the run's changes back there. Once the session has ended the outcome is `error`.
   */
  withContext: WithContext;
  /** Runs `fn` on the page shown in the browser's own window (its first tab); rejects after `timeoutMs` per command. */
  withWindowPage<T>(fn: (page: InspectablePage) => Promise<T>, timeoutMs: number): Promise<T>;
  /**
   * The cookies and local storage of the browser's own window (where a person logs in): what a named browser state
   * saves from the session (README "Browser states"). Rejects once the session has ended.
   */
  storageState(): Promise<BrowserStorageState>;
  /** The browser's loopback DevTools URL while it runs. Internal: callers get the relayed URL instead. */
  cdpEndpoint(): string | undefined;
}

/** The managed browser's sessions (`app.browserSessions`). */
export interface BrowserSessions {
  /** The open session, or a newly launched one: headful first unless `headless`; headless when that fails. */
  open(options?: { headless?: boolean }): Promise<BrowserSession>;
  /** The open session with this id; throws NOT_FOUND (404) when there is none. */
  get(sessionId: string): BrowserSession;
  /** The open session, if any. */
  current(): BrowserSession | undefined;
  /** Ends the session (its browser closes); throws NOT_FOUND (404) when there is none. */
  close(sessionId: string): Promise<void>;
}

/** The headful session (`app.headfulSession`): what runs in mode `headful` use. */
export interface HeadfulSession {
  /**
   * The kernel pool's `withContext` in the managed browser (opened as `browserSessions.open()` does when
   * none is open): a window on the virtual display, visible over VNC. Never rejects; a browser that cannot
   * start gives an `error` outcome; the time a launch takes counts against `limits.timeoutMs`.
   */
  withContext: WithContext;
  status(): HeadfulStatus;
  /** The VNC password (generated once and kept in storage settings). */
  vncPassword(): Promise<string>;
  /**
   * Sets where noVNC's viewers go: `route` may take a viewer's connection over (to another instance's display) and
   * resolve to true; otherwise the viewer sees this instance's display.
   */
  routeVnc(route: VncRoute): void;
  /** A connection to this instance's VNC server (USE_NOVNC), or undefined when it does not run. */
  connectVnc(): Socket | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    headfulSession: HeadfulSession;
    browserSessions: BrowserSessions;
  }
}
