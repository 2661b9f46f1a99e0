import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Cookie, CookieData, Page } from 'puppeteer';
import type { BrowserCookie, ContextHandle, ContextOptions } from '../../../kernel/contracts/browser.js';
import { checkResponseSize } from '../shared/context-failures.js';
import { ContextRecording, type RecordingSet } from '../shared/context-recording.js';
import { DEFAULT_VIEWPORT, normaliseExpires } from '../shared/page-helpers.js';
import { readLocalStorage, seedLocalStorage } from './puppeteer-storage-state.js';
import { watchDownloads, type ContextDownloads } from './puppeteer-downloads.js';
import { wrapPuppeteerPage, type UploadFolders } from './puppeteer-page.js';
import { browserWritableFolder } from '../shared/browser-folder.js';

/**
 * A fresh incognito context. Puppeteer sets the proxy per context but viewport, user agent and proxy
 * credentials per page, so each new page gets them before it navigates.
 */
export async function openPuppeteerContext(
  browser: Browser,
  options: ContextOptions,
  recordings: RecordingSet,
  ffmpegPath: string | undefined,
  /** Ids of this connection's open contexts on a remote browser (see launchPuppeteer): added here, removed once closed. */
  remoteContexts?: Set<string>,
  /** A launched browser's profile, where its downloads go (a folder its user may write to); else the temporary folder. */
  profileDir?: string,
): Promise<ContextHandle> {
  const viewport = options.viewport ?? DEFAULT_VIEWPORT;
  const context = await browser.createBrowserContext({
    // Chromium never proxies loopback unless told: proxy everything, as Playwright does.
    ...(options.proxy ? { proxyServer: options.proxy.server, proxyBypassList: ['<-loopback>'] } : {}),
    downloadBehavior: { policy: 'deny' }, // unless the run takes downloads (below): they would fill the disk unseen
  });
  // A crashed page leaves Puppeteer's pending calls hanging: its 'error' event is the one sign.
  const watched = new WeakSet<Page>();
  const watch = (page: Page) => {
    if (!options.onFailure || watched.has(page)) return;
    watched.add(page);
    const { onFailure } = options;
    page.on('error', () => onFailure({ kind: 'page-crashed' }));
    if (options.maxResponseBytes !== undefined) page.on('response', (response) => checkResponseSize(options, response));
  };
  context.on('targetcreated', (target) => {
    if (target.type() === 'page') void target.page().then((page) => page && watch(page), () => undefined);
  });
  const id = context.id;
  if (id !== undefined) remoteContexts?.add(id);
  let downloads: ContextDownloads | undefined;
  try {
    const cookies = [...options.cookies ?? [], ...options.storageState?.cookies ?? []];
    if (cookies.length) await context.setCookie(...cookies.map(toPuppeteerCookie));
    if (options.storageState) await seedLocalStorage(context, options.storageState.origins);
    if (options.acceptDownloads && id !== undefined) downloads = await watchDownloads(browser, id, profileDir);
  } catch (error) {
    await context.close().then(() => { if (id !== undefined) remoteContexts?.delete(id); }, () => undefined);
    throw error;
  }
  const recording = new ContextRecording(options.recordVideoDir, ffmpegPath, viewport);
  recordings.add(recording);
  // Files its pages upload: in the profile of a launched browser (whose user may differ), removed as it closes.
  const uploadDirs: string[] = [];
  const uploads: UploadFolders = {
    async make() {
      const dir = profileDir ? await browserWritableFolder(profileDir, 'uploads-') : await mkdtemp(path.join(os.tmpdir(), 'taskloom-upload-'));
      uploadDirs.push(dir);
      return dir;
    },
  };
  return {
    async newPage() {
      const page = await context.newPage();
      watch(page);
      await page.setViewport(viewport);
      if (options.userAgent) await page.setUserAgent(options.userAgent);
      const { username, password } = options.proxy ?? {};
      if (username !== undefined) await page.authenticate({ username, password: password ?? '' });
      await recording.attach(async () => {
        const session = await page.createCDPSession();
        return {
          send: (method, params) => session.send(method as never, params as never),
          on: (event, listener) => { session.on(event as never, listener as never); },
        };
      });
      return wrapPuppeteerPage(page, downloads, uploads);
    },
    async cookies() {
      return (await context.cookies()).map(fromPuppeteerCookie);
    },
    async storageState() {
      return { cookies: (await context.cookies()).map(fromPuppeteerCookie), origins: await readLocalStorage(context) };
    },
    async addCookies(cookies) {
      if (cookies.length) await context.setCookie(...cookies.map(toPuppeteerCookie));
    },
    async close() {
      try {
        const videoPath = await recording.stop();
        return { videoPath };
      } finally {
        recordings.delete(recording);
        await context.close();
        if (id !== undefined) remoteContexts?.delete(id);
        await downloads?.close();
        await Promise.all(uploadDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
      }
    },
  };
}

function toPuppeteerCookie(c: BrowserCookie): CookieData {
  return {
    name: c.name, value: c.value, domain: c.domain, path: c.path, expires: normaliseExpires(c.expires),
    httpOnly: c.httpOnly, secure: c.secure, sameSite: c.sameSite,
  };
}

function fromPuppeteerCookie(c: Cookie): BrowserCookie {
  return {
    name: c.name, value: c.value, domain: c.domain, path: c.path, expires: normaliseExpires(c.expires),
    httpOnly: c.httpOnly, secure: c.secure,
    // Chromium's `Default` means no attribute was given, which browsers treat as Lax.
    sameSite: c.sameSite === 'Default' ? undefined : c.sameSite,
  };
}
