import type { Page } from 'playwright';
import type { BrowserPage } from '../../../kernel/contracts/browser.js';
import { pageScript, timed } from '../shared/page-helpers.js';
import { pageDevtools } from '../shared/page-devtools.js';

/** The contract's page over a Playwright page. Selectors are Playwright's (CSS, `text=`, `xpath=`, `//`). */
export function wrapPlaywrightPage(page: Page): BrowserPage {
  return {
    async goto(url, timeoutMs) {
      await timed(`navigation to ${url}`, timeoutMs, () => page.goto(url, { timeout: timeoutMs, waitUntil: 'load' }));
    },
    click: (selector, timeoutMs) =>
      timed(`selector "${selector}" to click`, timeoutMs, () => page.click(selector, { timeout: timeoutMs })),
    hover: (selector, timeoutMs) =>
      timed(`selector "${selector}" to hover`, timeoutMs, () => page.hover(selector, { timeout: timeoutMs })),
    type: (selector, text, timeoutMs) =>
      timed(`selector "${selector}" to type into`, timeoutMs, () =>
        page.locator(selector).first().pressSequentially(text, { timeout: timeoutMs })),
    press: (key, selector, timeoutMs) =>
      selector === undefined
        ? page.keyboard.press(key)
        : timed(`selector "${selector}" to press ${key} on`, timeoutMs, () => page.press(selector, key, { timeout: timeoutMs })),
    async waitForSelector(selector, timeoutMs) {
      await timed(`selector "${selector}" to be visible`, timeoutMs, () =>
        page.waitForSelector(selector, { state: 'visible', timeout: timeoutMs }));
    },
    evaluate: (body, args) => page.evaluate(pageScript(body, args)),
    screenshot: ({ fullPage, type, quality }) =>
      page.screenshot({ fullPage, type, quality: type === 'jpeg' ? quality : undefined }),
    url: () => page.url(),
    title: () => page.title(),
    content: () => page.content(),
    devtools: async () => pageDevtools(await page.context().newCDPSession(page)),
  };
}
