import puppeteer, { type Browser } from 'puppeteer';
import type { BrowserHandle } from '../../../kernel/contracts/browser.js';
import { RecordingSet } from '../shared/context-recording.js';
import { DevToolsPipe } from '../shared/devtools-pipe.js';
import { refusalOf } from '../shared/remote-refusal.js';
import { driveLaunchedChromium, type ChromiumLaunchOptions, type LaunchedChromium } from '../shared/launch-chromium.js';
import { openPuppeteerContext } from './puppeteer-context.js';

/**
 * Launches Chromium and connects Puppeteer to it, or connects to a remote browser's DevTools endpoint.
 * `orphans` holds the ids of contexts a dropped connection left open on a remote browser (Puppeteer does not
 * ask Chromium to dispose of them): the next connection closes them. Contexts of connections still open (one
 * per run with BROWSER_REMOTE_MODE=per-run) are never touched.
 */
export async function launchPuppeteer(
  options: ChromiumLaunchOptions,
  ffmpegPath: string | undefined,
  orphans: Set<string> = new Set(),
): Promise<BrowserHandle> {
  if (options.wsEndpoint) {
    const browser = await connectRemote(options.wsEndpoint, options.timeoutMs);
    await closeOrphans(browser, orphans);
    return puppeteerHandle(browser, ffmpegPath, undefined, orphans);
  }
  return driveLaunchedChromium(options, async (launched) => {
    const browser = await withTimeout(
      puppeteer.connect({
        transport: new DevToolsPipe<string>(launched.pipe.toBrowser, launched.pipe.fromBrowser, 'text'),
        defaultViewport: null,
      }),
      options.timeoutMs,
      'connecting to Chromium',
    );
    return puppeteerHandle(browser, ffmpegPath, launched);
  });
}

/** Errors never quote the endpoint: it may carry a token (the kernel logs it redacted). */
async function connectRemote(endpoint: string, timeoutMs: number): Promise<Browser> {
  try {
    return await withTimeout(
      puppeteer.connect({
        ...(/^https?:/.test(endpoint) ? { browserURL: endpoint } : { browserWSEndpoint: endpoint }),
        defaultViewport: null,
      }),
      timeoutMs,
      'connecting to the remote browser',
    );
  } catch (error) {
    const refusal = refusalOf(error, timeoutMs);
    if (refusal) throw refusal;
    if (/^wss?:/.test(endpoint) && !isUnreachable(error) && (await answersAsPlaywrightServer(endpoint))) {
      throw Object.assign(new Error(PLAYWRIGHT_SERVER), { retryable: false });
    }
    throw new Error(`connecting over the DevTools protocol failed: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
  }
}

const PLAYWRIGHT_SERVER = 'it answers as a Playwright browser server (chromium.launchServer, or a grid\'s Playwright ' +
  'endpoint), whose protocol only Playwright speaks; Puppeteer needs a Chromium DevTools endpoint. Set BROWSER_ENGINE=playwright, ' +
  'or point BROWSER_WS_ENDPOINT at a DevTools endpoint (http://host:9222 or ws://host:9222/devtools/browser/<id>)';

function isUnreachable(error: unknown): boolean {
  return /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ECONNRESET|EAI_AGAIN|Timed out/.test(String((error as Error)?.message ?? error));
}

/** A DevTools endpoint answers JSON at /json/version; a Playwright server answers plain text there. */
async function answersAsPlaywrightServer(endpoint: string): Promise<boolean> {
  try {
    const url = new URL('/json/version', endpoint.replace(/^ws/, 'http'));
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    const body = await response.text();
    try {
      JSON.parse(body);
      return false;
    } catch {
      return response.ok;
    }
  } catch {
    return false;
  }
}

async function closeOrphans(browser: Browser, orphans: Set<string>): Promise<void> {
  if (orphans.size === 0) return;
  const left = browser.browserContexts().filter((context) => context.id !== undefined && orphans.has(context.id));
  orphans.clear();
  await Promise.all(left.map((context) => context.close().catch(() => undefined)));
}

function puppeteerHandle(
  browser: Browser,
  ffmpegPath: string | undefined,
  launched: LaunchedChromium | undefined,
  orphans?: Set<string>,
): BrowserHandle {
  const recordings = new RecordingSet();
  const listeners: Array<() => void> = [];
  // On a remote browser: this connection's open contexts, left to the next connection to close if it drops.
  const remoteContexts = orphans && new Set<string>();
  let disconnected = false;
  const onGone = () => {
    if (disconnected) return;
    disconnected = true;
    for (const id of remoteContexts ?? []) orphans!.add(id);
    remoteContexts?.clear();
    recordings.stopAll();
    for (const listener of listeners.splice(0)) listener();
  };
  browser.on('disconnected', onGone);
  void launched?.exited.then(onGone);
  // Over the pipe Puppeteer knows no URL: the launched browser's loopback DevTools URL serves the relay.
  const endpoint = launched?.wsEndpoint ?? browser.wsEndpoint();

  return {
    pid: launched?.pid,
    isConnected: () => !disconnected && browser.connected,
    onDisconnected: (listener) => {
      if (disconnected) queueMicrotask(listener);
      else listeners.push(listener);
    },
    newContext: (options) => openPuppeteerContext(browser, options, recordings, ffmpegPath, remoteContexts, launched?.profileDir),
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
