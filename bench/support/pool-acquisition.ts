import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBrowserPool } from '../../layers/browser-pool/browser-pool.js';
import { createPlaywrightDriver } from '../../providers/browser/playwright/index.js';
import { createPuppeteerDriver } from '../../providers/browser/puppeteer/index.js';
import { silentLogger } from '../../testing/loggers.js';

export interface Acquisition {
  /** From `withContext`'s call to the run's function holding its context (ms), per run. */
  acquire: number[];
  /** The same, to its first page open (ms). */
  firstPage: number[];
}

/**
 * Context acquisition in the browser pool the service uses (in this process, same engine and Chromium, the
 * cookie jar in memory): `warmContexts` 0 opens a context per run as before; more keeps that many ready. One
 * run at a time, each opening `url`, with a pause after each as between requests.
 */
export async function measureAcquisition(engine: string, url: string, warmContexts: number, runs: number, pauseMs: number): Promise<Acquisition> {
  const driver = engine === 'puppeteer' ? createPuppeteerDriver() : createPlaywrightDriver();
  const pool = createBrowserPool({ driver, config: {}, logger: silentLogger, warmContexts });
  const result: Acquisition = { acquire: [], firstPage: [] };
  try {
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const outcome = await pool.withContext({ keepCookies: true }, async (context) => {
        const acquired = performance.now();
        const page = await context.newPage();
        const paged = performance.now();
        await page.goto(url, 10_000);
        return [acquired - started, paged - started] as const;
      });
      if (outcome.status !== 'ok') throw new Error(`a pool run failed: ${outcome.error.message}`);
      if (i > 0) { // the first launches the browser
        result.acquire.push(outcome.value[0]);
        result.firstPage.push(outcome.value[1]);
      }
      await sleep(pauseMs);
    }
  } finally {
    await pool.close();
  }
  return result;
}
