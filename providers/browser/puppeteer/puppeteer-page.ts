import fsp from 'node:fs/promises';
import path from 'node:path';
import type { ElementHandle, Frame, Keyboard, Page } from 'puppeteer';
import type { BrowserFrame, BrowserPage } from '../../../kernel/contracts/browser.js';
import { pageScript, timed } from '../shared/page-helpers.js';
import { pageDevtools } from '../shared/page-devtools.js';
import { countNavigations, loadedFrame, notAFrame, optionError, optionIndex, timeLeft, until } from '../shared/page-extras.js';
import type { ContextDownloads } from './puppeteer-downloads.js';
import { dragInFrame } from './puppeteer-frame-drag.js';
import { pressChord, puppeteerSelector } from './puppeteer-keys.js';

/** Where a context keeps what its pages upload: the browser reads a file only when the page does, so it stays until the context closes. */
export interface UploadFolders {
  /** A fresh folder the browser may read. */
  make(): Promise<string>;
}

/**
 * The contract's page over a Puppeteer page. Locators wait until the element is visible and enabled.
 * `downloads`: the context's, when it takes them; `uploads`: where files to upload are written.
 */
export function wrapPuppeteerPage(page: Page, downloads: ContextDownloads | undefined, uploads: UploadFolders): BrowserPage {
  const navigations = countNavigations<Frame>(page);
  return {
    ...wrapDocument(page, page.keyboard, { downloads, uploads }),
    async goto(url, timeoutMs) {
      await timed(`navigation to ${url}`, timeoutMs, () => page.goto(url, { timeout: timeoutMs, waitUntil: 'load' }));
    },
    async screenshot({ fullPage, type, quality }) {
      return Buffer.from(await page.screenshot({ fullPage, type, quality: type === 'jpeg' ? quality : undefined }));
    },
    devtools: async () => pageDevtools(await page.createCDPSession()),
    async reload(timeoutMs) {
      await timed('the page to reload', timeoutMs, () => page.reload({ timeout: timeoutMs, waitUntil: 'load' }));
    },
    navigations,
    waitForNavigation: (after, timeoutMs) => timed('a navigation', timeoutMs, async () => {
      const started = Date.now();
      await until(() => navigations() > after, timeoutMs, 'a navigation');
      const loaded = () => page.evaluate('document.readyState === "complete"').then(Boolean, () => false);
      await until(loaded, timeoutMs && timeLeft(started + timeoutMs), 'the page to load');
    }),
    waitForNetworkIdle: (idleMs, timeoutMs) =>
      timed(`the network to be idle for ${idleMs} ms`, timeoutMs, () => page.waitForNetworkIdle({ idleTime: idleMs, timeout: timeoutMs, concurrency: 0 })),
    frame: (chain, timeoutMs) => timed(`frame "${chain.join(' >> ')}"`, timeoutMs, async () => {
      const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
      let doc: Page | Frame = page;
      for (const selector of chain) {
        const element: ElementHandle | null = await doc.waitForSelector(puppeteerSelector(selector), { timeout: timeLeft(deadline) });
        if (!element) throw notAFrame(selector);
        try {
          doc = await loadedFrame<Frame>(element, selector, timeLeft(deadline));
        } finally {
          await element.dispose();
        }
      }
      return wrapDocument(doc, page.keyboard, { downloads, uploads }, true);
    }),
  };
}

/** What a page and a frame's document (`inFrame`) both do; `transfer`: the page's downloads and upload folders. */
function wrapDocument(
  doc: Page | Frame, keyboard: Keyboard, transfer: { downloads: ContextDownloads | undefined; uploads: UploadFolders }, inFrame = false,
): BrowserFrame {
  const { downloads, uploads } = transfer;
  const visible = async (selector: string, timeoutMs: number) => {
    const handle = inFrame
      ? await frameWait(doc as Frame, puppeteerSelector(selector), timeoutMs)
      : await doc.waitForSelector(puppeteerSelector(selector), { visible: true, timeout: timeoutMs });
    if (!handle) throw new Error(`selector "${selector}" matched no element`);
    return handle;
  };
  /** Runs `work` on the first visible match, then lets the handle go. */
  const withVisible = async <T>(selector: string, timeoutMs: number, work: (handle: ElementHandle<Element>) => Promise<T>) => {
    const handle = await visible(selector, timeoutMs);
    try {
      return await work(handle);
    } finally {
      await handle.dispose();
    }
  };
  const locator = (selector: string, timeoutMs: number) => doc.locator(puppeteerSelector(selector)).setTimeout(timeoutMs);
  return {
    // Puppeteer hands the input files by path: written under their names to a folder kept until the context closes.
    setInputFiles: (selector, files, timeoutMs) =>
      timed(`selector "${selector}" to set files on`, timeoutMs, async () => {
        const handle = await doc.waitForSelector(puppeteerSelector(selector), { timeout: timeoutMs });
        if (!handle) throw new Error(`selector "${selector}" matched no element`);
        const dir = await uploads.make();
        try {
          const paths = await Promise.all(files.map(async (file, i) => {
            const where = path.join(dir, String(i), file.name);
            await fsp.mkdir(path.dirname(where), { mode: 0o755 });
            await fsp.writeFile(where, file.buffer, { mode: 0o644 });
            return where;
          }));
          await (handle as ElementHandle<HTMLInputElement>).uploadFile(...paths);
        } finally {
          await handle.dispose();
        }
      }),
    async download(selector, timeoutMs) {
      if (!downloads) throw new Error('this context takes no downloads');
      const what = `a download after clicking "${selector}"`;
      const arrived = downloads.next(timeoutMs, what);
      arrived.catch(() => undefined); // awaited below, unless the click fails first
      await timed(`selector "${selector}" to click`, timeoutMs, () => doc.locator(puppeteerSelector(selector)).setTimeout(timeoutMs).click());
      return arrived;
    },
    click: (selector, timeoutMs) =>
      timed(`selector "${selector}" to click`, timeoutMs, () => locator(selector, timeoutMs).click()),
    hover: (selector, timeoutMs) =>
      timed(`selector "${selector}" to hover`, timeoutMs, () => locator(selector, timeoutMs).hover()),
    type: (selector, text, timeoutMs) =>
      timed(`selector "${selector}" to type into`, timeoutMs, () => withVisible(selector, timeoutMs, (handle) => handle.type(text))),
    press: (key, selector, timeoutMs) =>
      timed(`selector "${selector}" to press ${key} on`, timeoutMs, async () => {
        if (selector !== undefined) await withVisible(selector, timeoutMs, (handle) => handle.focus());
        await pressChord(keyboard, key);
      }),
    async waitForSelector(selector, timeoutMs) {
      await timed(`selector "${selector}" to be visible`, timeoutMs, () => withVisible(selector, timeoutMs, async () => undefined));
    },
    evaluate: (body, args) => doc.evaluate(pageScript(body, args)),
    url: () => doc.url(),
    title: () => doc.title(),
    content: () => doc.content(),
    setChecked: (selector, checked, timeoutMs) =>
      timed(`selector "${selector}" to ${checked ? 'check' : 'uncheck'}`, timeoutMs, () => withVisible(selector, timeoutMs, async (handle) => {
        const state = () => handle.evaluate((el) => (el as HTMLInputElement).checked);
        if ((await state()) === checked) return;
        await handle.click();
        if ((await state()) !== checked) throw new Error(`clicking selector "${selector}" did not ${checked ? 'check' : 'uncheck'} it`);
      })),
    selectOption: (selector, option, timeoutMs) =>
      timed(`selector "${selector}" to select in`, timeoutMs, () => withVisible(selector, timeoutMs, async (handle) => {
        const index = await handle.evaluate(optionIndex, option);
        if (index < 0) throw optionError(selector, option, index);
        // As Playwright does: the option becomes the selected one, then `input` and `change` bubble.
        await handle.evaluate((el, i) => {
          (el as HTMLSelectElement).selectedIndex = i;
          el.dispatchEvent(new Event('input', { bubbles: true }));
          el.dispatchEvent(new Event('change', { bubbles: true }));
        }, index);
      })),
    clickAs: (selector, how, timeoutMs) =>
      timed(`selector "${selector}" to ${how === 'double' ? 'double-click' : 'right-click'}`, timeoutMs, () =>
        locator(selector, timeoutMs).click(how === 'double' ? { count: 2 } : { button: 'right' })),
    dragAndDrop: (selector, target, timeoutMs) =>
      timed(`selector "${selector}" to drag onto "${target}"`, timeoutMs, () => withVisible(selector, timeoutMs, (source) =>
        withVisible(target, timeoutMs, async (onto) => {
          if (inFrame && await dragInFrame(source, onto)) return;
          await onto.drop(source);
        }))),
  };
}

/** How long one wait in a frame lasts before it is made afresh (see frameWait). */
const FRAME_WAIT_SLICE_MS = 1000;

/**
 * Waits for a visible match in a frame's document. A wait begun as a cross-origin frame's document has just come
 * (its own renderer process) sometimes never sees it: it is made afresh every second until `timeoutMs`.
 */
async function frameWait(frame: Frame, selector: string, timeoutMs: number): Promise<ElementHandle<Element> | null> {
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
  for (;;) {
    const left = timeLeft(deadline);
    const slice = left === 0 ? FRAME_WAIT_SLICE_MS : Math.min(left, FRAME_WAIT_SLICE_MS);
    try {
      return await frame.waitForSelector(selector, { visible: true, timeout: slice });
    } catch (error) {
      if (!(error instanceof Error && error.name === 'TimeoutError') || Date.now() >= deadline) throw error;
    }
  }
}
