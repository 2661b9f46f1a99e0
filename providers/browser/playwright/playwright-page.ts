import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { ElementHandle, Frame, Page } from 'playwright';
import type { BrowserFrame, BrowserPage } from '../../../kernel/contracts/browser.js';
import { pageScript, timed } from '../shared/page-helpers.js';
import { pageDevtools } from '../shared/page-devtools.js';
import { countNavigations, loadedFrame, optionError, optionIndex, timeLeft, trackRequests, until } from '../shared/page-extras.js';

/** The contract's page over a Playwright page. Selectors are Playwright's (CSS, `text=`, `xpath=`, `//`). */
export function wrapPlaywrightPage(page: Page): BrowserPage {
  const navigations = countNavigations<Frame>(page);
  const quietFor = trackRequests(page);
  return {
    ...wrapDocument(page, page),
    async goto(url, timeoutMs) {
      await timed(`navigation to ${url}`, timeoutMs, () => page.goto(url, { timeout: timeoutMs, waitUntil: 'load' }));
    },
    screenshot: ({ fullPage, type, quality }) =>
      page.screenshot({ fullPage, type, quality: type === 'jpeg' ? quality : undefined }),
    devtools: async () => pageDevtools(await page.context().newCDPSession(page)),
    async reload(timeoutMs) {
      await timed('the page to reload', timeoutMs, () => page.reload({ timeout: timeoutMs, waitUntil: 'load' }));
    },
    navigations,
    waitForNavigation: (after, timeoutMs) => timed('a navigation', timeoutMs, async () => {
      const started = Date.now();
      await until(() => navigations() > after, timeoutMs, 'a navigation');
      await page.waitForLoadState('load', { timeout: timeoutMs && timeLeft(started + timeoutMs) });
    }),
    waitForNetworkIdle: (idleMs, timeoutMs) => until(() => quietFor() >= idleMs, timeoutMs, `the network to be idle for ${idleMs} ms`),
    frame: (chain, timeoutMs) => timed(`frame "${chain.join(' >> ')}"`, timeoutMs, async () => {
      const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
      let doc: Page | Frame = page;
      for (const selector of chain) {
        const element: ElementHandle = await doc.waitForSelector(selector, { state: 'attached', timeout: timeLeft(deadline) });
        try {
          doc = await loadedFrame<Frame>(element, selector, timeLeft(deadline));
        } finally {
          await element.dispose();
        }
      }
      return wrapDocument(doc, page);
    }),
  };
}

/** What a page and a frame's document both do; `page` is the page the document is in (keys and downloads are its). */
function wrapDocument(doc: Page | Frame, page: Page): BrowserFrame {
  const first = (selector: string) => doc.locator(selector).first();
  const { keyboard } = page;
  return {
    setInputFiles: (selector, files, timeoutMs) =>
      timed(`selector "${selector}" to set files on`, timeoutMs, () => doc.setInputFiles(selector, files, { timeout: timeoutMs })),
    download: (selector, timeoutMs) =>
      timed(`a download after clicking "${selector}"`, timeoutMs, async () => {
        const [download] = await Promise.all([
          page.waitForEvent('download', { timeout: timeoutMs }), doc.click(selector, { timeout: timeoutMs }),
        ]);
        // saveAs waits for the whole file, and streams it from a remote browser too.
        const file = path.join(os.tmpdir(), `taskloom-download-${randomUUID()}`);
        await download.saveAs(file);
        return { name: download.suggestedFilename(), path: file };
      }),
    click: (selector, timeoutMs) =>
      timed(`selector "${selector}" to click`, timeoutMs, () => doc.click(selector, { timeout: timeoutMs })),
    hover: (selector, timeoutMs) =>
      timed(`selector "${selector}" to hover`, timeoutMs, () => doc.hover(selector, { timeout: timeoutMs })),
    type: (selector, text, timeoutMs) =>
      timed(`selector "${selector}" to type into`, timeoutMs, () => first(selector).pressSequentially(text, { timeout: timeoutMs })),
    press: (key, selector, timeoutMs) =>
      selector === undefined
        ? keyboard.press(key)
        : timed(`selector "${selector}" to press ${key} on`, timeoutMs, () => doc.press(selector, key, { timeout: timeoutMs })),
    async waitForSelector(selector, timeoutMs) {
      await timed(`selector "${selector}" to be visible`, timeoutMs, () =>
        doc.waitForSelector(selector, { state: 'visible', timeout: timeoutMs }));
    },
    evaluate: (body, args) => doc.evaluate(pageScript(body, args)),
    url: () => doc.url(),
    title: () => doc.title(),
    content: () => doc.content(),
    setChecked: (selector, checked, timeoutMs) =>
      timed(`selector "${selector}" to ${checked ? 'check' : 'uncheck'}`, timeoutMs, () => first(selector).setChecked(checked, { timeout: timeoutMs })),
    selectOption: (selector, option, timeoutMs) =>
      timed(`selector "${selector}" to select in`, timeoutMs, async () => {
        const element = first(selector);
        await element.waitFor({ state: 'visible', timeout: timeoutMs });
        const index = await element.evaluate(optionIndex, option);
        if (index < 0) throw optionError(selector, option, index);
        await element.selectOption({ index }, { timeout: timeoutMs });
      }),
    clickAs: (selector, how, timeoutMs) =>
      timed(`selector "${selector}" to ${how === 'double' ? 'double-click' : 'right-click'}`, timeoutMs, () =>
        how === 'double' ? first(selector).dblclick({ timeout: timeoutMs }) : first(selector).click({ button: 'right', timeout: timeoutMs })),
    dragAndDrop: (selector, target, timeoutMs) =>
      timed(`selector "${selector}" to drag onto "${target}"`, timeoutMs, () => first(selector).dragTo(first(target), { timeout: timeoutMs })),
  };
}
