import crypto from 'node:crypto';
import type { BrowserPage, BrowserStorageState, PageDevtools } from '../../kernel/contracts/browser.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import { Errors } from '../../kernel/errors.js';
import type { KernelServices } from '../../kernel/services.js';
import { RECORD_BINDING, RECORDER_SCRIPT } from './recorder-script.js';
import type { RecordedStep } from './recording.js';
import { Screencast } from './screencast.js';
import { STUDIO_SCRIPT } from './selector-script.js';
import { FINGERPRINT_SCRIPT } from './fingerprint-script.js';
import type { KeptElement } from './element-fingerprints.js';

/** A temporary page of the studio: opened by URL, streamed, driven by the person, recorded when asked. */
export interface StudioSession {
  readonly id: string;
  readonly page: BrowserPage;
  /** The session's own DevTools session: input, the in-page helpers, the recorder's binding. */
  readonly devtools: PageDevtools;
  /** The page's screencast, started anew when the last one ended (every viewer had left). */
  screencast(): Screencast;
  mode: 'interact' | 'pick' | 'record';
  readonly steps: RecordedStep[];
  /** Variables the recording introduced (a password field's). */
  readonly variables: Set<string>;
  /** The elements recorded or picked, with their fingerprints (healing), for the task saved from the session. */
  readonly elements: KeptElement[];
  /** The context's cookies and local storage (what a named browser state saves); undefined on an engine without contract 1.4. */
  readonly storageState?: () => Promise<BrowserStorageState>;
  /** Last time a viewer was connected or sent something. */
  touched: number;
  viewers: number;
  close(): void;
}

const OPEN_MS = 30_000;
/** A session ends after this long whatever happens, and after IDLE_MS without a viewer. */
const MAX_SESSION_MS = 60 * 60_000;
const IDLE_MS = 5 * 60_000;
export const MAX_SESSIONS = 4;

/**
 * The open studio sessions of this process. Each holds a browser context of the pool for its life (no cookies from
 * the jar and none kept: what a person does here stays here), ended by `close`, by IDLE_MS without a viewer, by
 * MAX_SESSION_MS, or by shutdown.
 */
export function createStudioSessions(services: KernelServices, logger: Logger) {
  const open = new Map<string, StudioSession>();
  const sweep = setInterval(() => {
    for (const session of open.values()) if (session.viewers === 0 && Date.now() - session.touched > IDLE_MS) session.close();
  }, 30_000);
  sweep.unref();

  async function start(url: string, viewport: { width: number; height: number } | undefined): Promise<StudioSession> {
    await services.outbound.guard.checkUrl(url, { errorAs: Errors.INVALID_URL });
    if (open.size >= MAX_SESSIONS) throw Errors.VALIDATION_ERROR({ message: `At most ${MAX_SESSIONS} studio sessions may be open: close one first` });
    const id = `studio_${crypto.randomBytes(12).toString('base64url')}`;
    let closeSession!: () => void;
    const closed = new Promise<void>((resolve) => { closeSession = resolve; });
    let ready!: (session: StudioSession) => void;
    const opened = new Promise<StudioSession>((resolve) => { ready = resolve; });
    const held = services.browser.withContext({ viewport, keepCookies: false }, async (context, signal) => {
      const page = await context.newPage();
      if (!page.devtools) throw new Error('This browser engine offers no DevTools session for a page');
      await page.goto(url, OPEN_MS);
      const devtools = await page.devtools();
      await devtools.send('Runtime.enable');
      await devtools.send('Page.enable');
      await devtools.send('Runtime.addBinding', { name: RECORD_BINDING });
      for (const source of [STUDIO_SCRIPT, FINGERPRINT_SCRIPT, RECORDER_SCRIPT]) {
        await devtools.send('Page.addScriptToEvaluateOnNewDocument', { source });
        await devtools.send('Runtime.evaluate', { expression: source });
      }
      let cast: Screencast | undefined;
      const session: StudioSession = {
        id, page, devtools, screencast: () => (cast && !cast.isEnded ? cast : (cast = new Screencast(page))), mode: 'interact', steps: [], variables: new Set(), elements: [],
        touched: Date.now(), viewers: 0, close: closeSession,
        ...(context.storageState ? { storageState: () => context.storageState!() } : {}),
      };
      open.set(id, session);
      ready(session);
      signal.addEventListener('abort', closeSession, { once: true });
      await closed;
      open.delete(id);
      await cast?.end();
      await devtools.detach();
    }, { timeoutMs: MAX_SESSION_MS, signal: services.shutdownSignal });
    void held.then((outcome) => {
      open.delete(id);
      if (outcome.status !== 'ok' && outcome.status !== 'aborted') logger.info({ sessionId: id, status: outcome.status }, 'studio session ended');
    });
    const first = await Promise.race([opened, held]);
    if ('status' in first) {
      const reason = 'error' in first ? first.error.message : first.status;
      throw Errors.UPSTREAM_ERROR({ reason: `Opening the page failed: ${reason}` });
    }
    return first;
  }

  return {
    start,
    get: (id: string) => open.get(id),
    /** The open session `id` (touched: a request keeps it alive as a viewer does); 404 NOT_FOUND when none is. */
    found(id: string): StudioSession {
      const session = open.get(id);
      if (!session) throw Errors.NOT_FOUND({}, { details: `Studio session ${id} is not open` });
      session.touched = Date.now();
      return session;
    },
    /** Closes a session; false when none has that id. */
    close(id: string): boolean {
      const session = open.get(id);
      session?.close();
      return session !== undefined;
    },
    closeAll(): void {
      clearInterval(sweep);
      for (const session of open.values()) session.close();
    },
  };
}

export type StudioSessions = ReturnType<typeof createStudioSessions>;
