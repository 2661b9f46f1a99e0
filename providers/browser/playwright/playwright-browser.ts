import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright';
import type { BrowserHandle, BrowserLaunchOptions } from '../../../kernel/contracts/browser.js';
import { RecordingSet } from '../shared/context-recording.js';
import { launchChromium, type LaunchedChromium } from '../shared/launch-chromium.js';
import { openPlaywrightContext } from './playwright-context.js';

/** Launches Chromium and drives it over the DevTools protocol, or connects to a remote browser. */
export async function launchPlaywright(options: BrowserLaunchOptions, ffmpegPath: string | undefined): Promise<BrowserHandle> {
  if (options.wsEndpoint) {
    const { browser, cdp } = await connectRemote(options.wsEndpoint, options.timeoutMs);
    return playwrightHandle(browser, ffmpegPath, undefined, cdp ? options.wsEndpoint : undefined);
  }
  const launched = await launchChromium(options);
  try {
    const browser = await chromium.connectOverCDP(launched.wsEndpoint, { timeout: options.timeoutMs });
    return playwrightHandle(browser, ffmpegPath, launched, launched.wsEndpoint);
  } catch (error) {
    launched.kill();
    throw error;
  }
}

/** Playwright's downloaded Chromium, when one was installed (`npx playwright install chromium`). */
export function installedPlaywrightChromium(): string | undefined {
  try {
    const candidate = chromium.executablePath();
    return candidate && existsSync(candidate) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/** A Playwright server URL (`launchServer`, browserless `/playwright`) or else a DevTools endpoint. */
async function connectRemote(endpoint: string, timeout: number): Promise<{ browser: Browser; cdp: boolean }> {
  const looksCdp = /^https?:/.test(endpoint) || endpoint.includes('/devtools/');
  if (!looksCdp) {
    try {
      return { browser: await chromium.connect(endpoint, { timeout }), cdp: false };
    } catch {
      // Not a Playwright server: try the DevTools protocol below.
    }
  }
  return { browser: await chromium.connectOverCDP(endpoint, { timeout }), cdp: true };
}

function playwrightHandle(
  browser: Browser,
  ffmpegPath: string | undefined,
  launched: LaunchedChromium | undefined,
  cdpEndpoint: string | undefined,
): BrowserHandle {
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

  return {
    pid: launched?.pid,
    isConnected: () => !disconnected && browser.isConnected(),
    onDisconnected: (listener) => {
      if (disconnected) queueMicrotask(listener);
      else listeners.push(listener);
    },
    newContext: (options) => openPlaywrightContext(browser, options, recordings, ffmpegPath),
    async close() {
      if (!launched) {
        await browser.close(); // remote: our contexts go, the browser stays
        return;
      }
      // connectOverCDP's close() only disconnects: ask Chromium itself to quit.
      const session = await browser.newBrowserCDPSession().catch(() => undefined);
      await session?.send('Browser.close').catch(() => undefined);
      await launched.exited;
    },
    kill() {
      if (launched) launched.kill();
      else void browser.close().catch(() => undefined);
    },
    cdpEndpoint: () => cdpEndpoint,
  };
}
