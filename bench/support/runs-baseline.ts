import { performance } from 'node:perf_hooks';
import { chromium, type Browser } from 'playwright';
import { detectChromium } from '../../layers/browser-pool/detect-chromium.js';
import { machineUsage } from './cpu-usage.js';
import { EXPECTED_DATA, playwrightSteps } from './runs-task.js';

export interface BaselineResult {
  /** Milliseconds per run, in order. */
  times: number[];
  failures: number;
  /** Wall time of the timed runs (warm-ups excluded). */
  wallMs: number;
  /** Cores the whole machine kept busy during the timed runs (see cpu-usage.ts). */
  busyCores: number;
}

async function oneRun(browser: Browser, origin: string): Promise<boolean> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const data = await playwrightSteps(page, origin);
    return JSON.stringify(data) === JSON.stringify(EXPECTED_DATA);
  } catch {
    return false;
  } finally {
    await context.close();
  }
}

/** The bare script's warm browser, for runs interleaved with the service's (see runs-interleaved.ts). */
export interface BareScript {
  /** One run: its wall time, or undefined when it did not produce the expected data. */
  run(): Promise<number | undefined>;
  close(): Promise<void>;
}

export async function startBareScript(origin: string): Promise<BareScript> {
  const browser = await chromium.launch({ executablePath: detectChromium({ configuredPath: process.env.BROWSER_EXECUTABLE_PATH, headless: true }), headless: true });
  return {
    async run() {
      const started = performance.now();
      const ok = await oneRun(browser, origin);
      return ok ? performance.now() - started : undefined;
    },
    close: () => browser.close(),
  };
}

/**
 * The baseline: one warm Chromium (the same binary taskloom launches headless), a fresh context per run, the
 * task's work as a bare Playwright script, `parallel` runs at a time (1: one after another). The browser is
 * closed before this resolves.
 */
export async function runBaseline(origin: string, warmups: number, runs: number, parallel = 1): Promise<BaselineResult> {
  const browser = await chromium.launch({ executablePath: detectChromium({ configuredPath: process.env.BROWSER_EXECUTABLE_PATH, headless: true }), headless: true });
  const times: number[] = [];
  let failures = 0;
  try {
    for (let i = 0; i < warmups; i++) await oneRun(browser, origin);
    const usage = machineUsage();
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < runs) {
        next++;
        const runStarted = performance.now();
        if (!(await oneRun(browser, origin))) failures++;
        times.push(performance.now() - runStarted);
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    return { times, failures, wallMs: performance.now() - started, busyCores: usage.stop() };
  } finally {
    await browser.close();
  }
}
