import type { Page } from 'playwright';

/**
 * The benchmarked task: six actions on the fixture home page (click, type, click, hover, press, javascript) and
 * an extraction script. `playwrightSteps` is the same work written as a bare Playwright script (the baseline).
 */
export function benchTask(origin: string) {
  return {
    name: 'bench: six actions',
    mode: 'agent',
    url: `${origin}/`,
    actions: [
      { type: 'click', selector: '#increment' },
      { type: 'type', selector: '#name', value: '{$who}' },
      { type: 'click', selector: '#greet' },
      { type: 'hover', selector: '#hover-me' },
      { type: 'press', selector: '#keys', key: 'Enter' },
      { type: 'javascript', value: 'return document.querySelectorAll(".item").length' },
    ],
    variables: { who: 'Ada' },
    extractionScript: 'return { count: document.querySelector("#count").textContent, greeting: document.querySelector("#greeting").textContent }',
  };
}

export const EXPECTED_DATA = { count: '1', greeting: 'Hello, Ada' };

/** The task's work in Playwright, as a hand-written script would do it. */
export async function playwrightSteps(page: Page, origin: string): Promise<unknown> {
  await page.goto(`${origin}/`);
  await page.click('#increment');
  await page.locator('#name').pressSequentially('Ada');
  await page.click('#greet');
  await page.hover('#hover-me');
  await page.press('#keys', 'Enter');
  await page.evaluate(() => document.querySelectorAll('.item').length);
  const data = await page.evaluate(() => ({
    count: document.querySelector('#count')!.textContent,
    greeting: document.querySelector('#greeting')!.textContent,
  }));
  await page.title();
  page.url();
  return data;
}
