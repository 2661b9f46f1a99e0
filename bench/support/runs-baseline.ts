import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright';
import { detectChromium } from '../../kernel/browser/detect-chromium.js';
import { EXPECTED_DATA, playwrightSteps } from './runs-task.js';

export interface BaselineResult {
  /** Milliseconds per run, in order. */
  times: number[];
  failures: number;
}

/**
 * The baseline: one warm Chromium (the same binary taskloom launches headless), a fresh context per run, the task's
 * work as a bare Playwright script, runs one after another. The browser is closed before this resolves.
 */
export async function runBaseline(origin: string, warmups: number, runs: number): Promise<BaselineResult> {
  const browser = await chromium.launch({ executablePath: detectChromium({ configuredPath: process.env.BROWSER_EXECUTABLE_PATH, headless: true }), headless: true });
  const times: number[] = [];
  let failures = 0;
  try {
    for (let i = 0; i < warmups + runs; i++) {
      const started = performance.now();
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const data = await playwrightSteps(page, origin);
        if (JSON.stringify(data) !== JSON.stringify(EXPECTED_DATA)) failures++;
      } catch {
        failures++;
      } finally {
        await context.close();
      }
      if (i >= warmups) times.push(performance.now() - started);
    }
  } finally {
    await browser.close();
  }
  return { times, failures };
}
