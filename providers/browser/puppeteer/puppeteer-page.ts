import type { Page } from 'puppeteer';
import type { BrowserPage } from '../../../kernel/contracts/browser.js';
import { pageScript, timed } from '../shared/page-helpers.js';
import { pageDevtools } from '../shared/page-devtools.js';
import { pressChord, puppeteerSelector } from './puppeteer-keys.js';

/** The contract's page over a Puppeteer page. Locators wait until the element is visible and enabled. */
export function wrapPuppeteerPage(page: Page): BrowserPage {
  const visible = async (selector: string, timeoutMs: number) => {
    const handle = await page.waitForSelector(puppeteerSelector(selector), { visible: true, timeout: timeoutMs });
    if (!handle) throw new Error(`selector "${selector}" matched no element`);
    return handle;
  };
  return {
    async goto(url, timeoutMs) {
      await timed(`navigation to ${url}`, timeoutMs, () => page.goto(url, { timeout: timeoutMs, waitUntil: 'load' }));
    },
    click: (selector, timeoutMs) =>
      timed(`selector "${selector}" to click`, timeoutMs, () =>
        page.locator(puppeteerSelector(selector)).setTimeout(timeoutMs).click()),
    hover: (selector, timeoutMs) =>
      timed(`selector "${selector}" to hover`, timeoutMs, () =>
        page.locator(puppeteerSelector(selector)).setTimeout(timeoutMs).hover()),
    type: (selector, text, timeoutMs) =>
      timed(`selector "${selector}" to type into`, timeoutMs, async () => {
        const handle = await visible(selector, timeoutMs);
        try {
          await handle.type(text);
        } finally {
          await handle.dispose();
        }
      }),
    press: (key, selector, timeoutMs) =>
      timed(`selector "${selector}" to press ${key} on`, timeoutMs, async () => {
        if (selector !== undefined) {
          const handle = await visible(selector, timeoutMs);
          await handle.focus();
          await handle.dispose();
        }
        await pressChord(page.keyboard, key);
      }),
    async waitForSelector(selector, timeoutMs) {
      await timed(`selector "${selector}" to be visible`, timeoutMs, async () => {
        await (await visible(selector, timeoutMs)).dispose();
      });
    },
    evaluate: (body, args) => page.evaluate(pageScript(body, args)),
    async screenshot({ fullPage, type, quality }) {
      return Buffer.from(await page.screenshot({ fullPage, type, quality: type === 'jpeg' ? quality : undefined }));
    },
    url: () => page.url(),
    title: () => page.title(),
    content: () => page.content(),
    devtools: async () => pageDevtools(await page.createCDPSession()),
  };
}
