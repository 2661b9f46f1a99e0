import type { Browser, BrowserContext } from 'playwright';
import type { BrowserCookie, ContextHandle, ContextOptions } from '../../../kernel/contracts/browser.js';
import { checkResponseSize } from '../shared/context-failures.js';
import { ContextRecording, type RecordingSet } from '../shared/context-recording.js';
import type { CdpSessionLike } from '../shared/screencast-recorder.js';
import { DEFAULT_VIEWPORT, normaliseExpires } from '../shared/page-helpers.js';
import { wrapPlaywrightPage } from './playwright-page.js';

/** A fresh Playwright context with the run's viewport, user agent, proxy and cookies. */
export async function openPlaywrightContext(
  browser: Browser,
  options: ContextOptions,
  recordings: RecordingSet,
  ffmpegPath: string | undefined,
  /** Called when the context closes without `close()` being asked (its browser went away). */
  onClosedUnasked?: () => void,
): Promise<ContextHandle> {
  const viewport = options.viewport ?? DEFAULT_VIEWPORT;
  const context = await browser.newContext({
    viewport,
    userAgent: options.userAgent,
    proxy: options.proxy,
    // Only for a run that takes downloads (a download action): otherwise they would fill the disk unseen.
    acceptDownloads: options.acceptDownloads === true,
    // Its cookies are added below with the others (one cookie mapping); Playwright seeds the local storage.
    ...(options.storageState?.origins.length ? { storageState: { cookies: [], origins: options.storageState.origins } } : {}),
  });
  if (options.onFailure) {
    const { onFailure } = options;
    // 'page' also fires for pages made by newPage and for popups.
    context.on('page', (page) => page.on('crash', () => onFailure({ kind: 'page-crashed' })));
    if (options.maxResponseBytes !== undefined) context.on('response', (response) => checkResponseSize(options, response));
  }
  let closeAsked = false;
  if (onClosedUnasked) context.on('close', () => { if (!closeAsked) onClosedUnasked(); });
  try {
    const cookies = [...options.cookies ?? [], ...options.storageState?.cookies ?? []];
    if (cookies.length) await context.addCookies(cookies.map(toPlaywrightCookie));
    if (options.tracePath) await context.tracing.start({ screenshots: true, snapshots: true });
  } catch (error) {
    closeAsked = true;
    await context.close().catch(() => undefined);
    throw error;
  }
  const recording = new ContextRecording(options.recordVideoDir, ffmpegPath, viewport);
  recordings.add(recording);
  return {
    async newPage() {
      const page = await context.newPage();
      await recording.attach(async () => cdpSession(context, page));
      return wrapPlaywrightPage(page);
    },
    cookies: async () => (await context.cookies()).map(fromPlaywrightCookie),
    async storageState() {
      const state = await context.storageState();
      return { cookies: state.cookies.map(fromPlaywrightCookie), origins: state.origins.map(({ origin, localStorage }) => ({ origin, localStorage })) };
    },
    addCookies: (cookies) => context.addCookies(cookies.map(toPlaywrightCookie)),
    async close() {
      try {
        const videoPath = await recording.stop();
        const tracePath = options.tracePath ? await stopTracing(context, options.tracePath) : undefined;
        return tracePath === undefined ? { videoPath } : { videoPath, tracePath };
      } finally {
        recordings.delete(recording);
        closeAsked = true;
        await context.close();
      }
    },
  };
}

/** Writes the context's trace to `path`; undefined when it could not (the context is closing anyway). */
async function stopTracing(context: BrowserContext, path: string): Promise<string | undefined> {
  try {
    await context.tracing.stop({ path });
    return path;
  } catch {
    return undefined;
  }
}

function fromPlaywrightCookie(c: Awaited<ReturnType<BrowserContext['cookies']>>[number]): BrowserCookie {
  return {
    name: c.name, value: c.value, domain: c.domain, path: c.path, expires: normaliseExpires(c.expires),
    httpOnly: c.httpOnly, secure: c.secure, sameSite: c.sameSite,
  };
}

function toPlaywrightCookie(c: BrowserCookie) {
  return { ...c, expires: normaliseExpires(c.expires) };
}

async function cdpSession(context: BrowserContext, page: Parameters<BrowserContext['newCDPSession']>[0]): Promise<CdpSessionLike> {
  const session = await context.newCDPSession(page);
  return {
    send: (method, params) => session.send(method as never, params as never),
    on: (event, listener) => { session.on(event as never, listener as never); },
  };
}
