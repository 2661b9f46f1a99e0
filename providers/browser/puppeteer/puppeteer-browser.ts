import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer';
import type { BrowserHandle, BrowserLaunchOptions } from '../../../kernel/contracts/browser.js';
import { RecordingSet } from '../shared/context-recording.js';
import { launchChromium, type LaunchedChromium } from '../shared/launch-chromium.js';
import { openPuppeteerContext } from './puppeteer-context.js';

/** Launches Chromium and connects Puppeteer to it, or connects to a remote browser's DevTools endpoint. */
export async function launchPuppeteer(options: BrowserLaunchOptions, ffmpegPath: string | undefined): Promise<BrowserHandle> {
  if (options.wsEndpoint) {
    const endpoint = options.wsEndpoint;
    const browser = await withTimeout(
      puppeteer.connect({
        ...(/^https?:/.test(endpoint) ? { browserURL: endpoint } : { browserWSEndpoint: endpoint }),
        defaultViewport: null,
      }),
      options.timeoutMs,
      `connecting to ${endpoint}`,
    );
    return puppeteerHandle(browser, ffmpegPath, undefined);
  }
  const launched = await launchChromium(options);
  try {
    const browser = await withTimeout(
      puppeteer.connect({ browserWSEndpoint: launched.wsEndpoint, defaultViewport: null }),
      options.timeoutMs,
      'connecting to Chromium',
    );
    return puppeteerHandle(browser, ffmpegPath, launched);
  } catch (error) {
    launched.kill();
    throw error;
  }
}

/** Puppeteer's downloaded Chrome, when one was installed (.puppeteerrc.cjs skips the download). */
export function installedPuppeteerChromium(): string | undefined {
  try {
    const candidate = puppeteer.executablePath();
    return candidate && existsSync(candidate) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

function puppeteerHandle(browser: Browser, ffmpegPath: string | undefined, launched: LaunchedChromium | undefined): BrowserHandle {
  const recordings = new RecordingSet();
  const listeners: Array<() => void> = [];
  let disconnected = false;
  const onGone = () => {
    if (disconnected) return;
    disconnected = true;
    recordings.stopAll();
    for (const listener of listeners.splice(0)) listener();
  };
  browser.on('disconnected', onGone);
  void launched?.exited.then(onGone);
  const endpoint = browser.wsEndpoint();

  return {
    pid: launched?.pid,
    isConnected: () => !disconnected && browser.connected,
    onDisconnected: (listener) => {
      if (disconnected) queueMicrotask(listener);
      else listeners.push(listener);
    },
    newContext: (options) => openPuppeteerContext(browser, options, recordings, ffmpegPath),
    async close() {
      if (!launched) {
        await browser.disconnect(); // remote: the browser is not ours to close
        return;
      }
      await browser.close().catch(() => undefined);
      await launched.exited;
    },
    kill() {
      if (launched) launched.kill();
      else void browser.disconnect().catch(() => undefined);
    },
    cdpEndpoint: () => endpoint,
  };
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
