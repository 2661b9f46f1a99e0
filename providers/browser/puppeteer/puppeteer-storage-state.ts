import type { BrowserContext, Frame } from 'puppeteer';
import type { BrowserStorageState } from '../../../kernel/contracts/browser.js';

type Origins = BrowserStorageState['origins'];

/** How long each origin's local storage may take to write or read. */
const ORIGIN_MS = 10_000;
const BLANK = '<!doctype html><title></title>';

/**
 * Writes each origin's local storage into a fresh context, as Playwright's `storageState` option does: a page of its own
 * opens each origin with a blank document answered in the browser (no request leaves it), writes the items and closes.
 */
export async function seedLocalStorage(context: BrowserContext, origins: Origins): Promise<void> {
  const wanted = origins.filter((entry) => entry.localStorage.length > 0);
  if (wanted.length === 0) return;
  const page = await context.newPage();
  try {
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      void request.respond({ status: 200, contentType: 'text/html', body: BLANK }).catch(() => undefined);
    });
    for (const { origin, localStorage } of wanted) {
      await page.goto(`${origin}/`, { timeout: ORIGIN_MS });
      await page.evaluate((items) => {
        for (const { name, value } of items) window.localStorage.setItem(name, value);
      }, localStorage);
    }
  } finally {
    await page.close();
  }
}

/** The local storage of every origin the context's pages and their frames show, once per origin. */
export async function readLocalStorage(context: BrowserContext): Promise<Origins> {
  const frames = (await context.pages()).flatMap((page) => page.frames());
  const byOrigin = new Map<string, Origins[number]['localStorage']>();
  for (const frame of frames) {
    const read = await readFrame(frame);
    if (read && !byOrigin.has(read.origin)) byOrigin.set(read.origin, read.items);
  }
  return [...byOrigin].filter(([, items]) => items.length > 0).map(([origin, localStorage]) => ({ origin, localStorage }));
}

async function readFrame(frame: Frame): Promise<{ origin: string; items: Array<{ name: string; value: string }> } | undefined> {
  try {
    return await frame.evaluate(() => {
      // An opaque origin (about:blank, data:) has no storage of its own to keep.
      if (window.location.origin === 'null') return undefined;
      const items: Array<{ name: string; value: string }> = [];
      for (let i = 0; i < window.localStorage.length; i++) {
        const name = window.localStorage.key(i)!;
        items.push({ name, value: window.localStorage.getItem(name) ?? '' });
      }
      return { origin: window.location.origin, items };
    });
  } catch {
    return undefined; // a detached frame, or one whose storage the page denies (sandboxed)
  }
}
