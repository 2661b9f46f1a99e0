import { chromium, type Browser } from 'playwright';
import type { BrowserHandle } from '../../../kernel/contracts/browser.js';
import { browserWritableFolder } from '../shared/browser-folder.js';
import { RecordingSet } from '../shared/context-recording.js';
import { DevToolsPipe } from '../shared/devtools-pipe.js';
import { refusalOf } from '../shared/remote-refusal.js';
import { driveLaunchedChromium, type ChromiumLaunchOptions, type LaunchedChromium } from '../shared/launch-chromium.js';
import { openPlaywrightContext } from './playwright-context.js';

/** Launches Chromium and drives it over the DevTools protocol, or connects to a remote browser. */
export async function launchPlaywright(options: ChromiumLaunchOptions, ffmpegPath: string | undefined): Promise<BrowserHandle> {
  if (options.wsEndpoint) {
    const { browser, cdp } = await connectRemote(options.wsEndpoint, options.timeoutMs);
    return playwrightHandle(browser, ffmpegPath, undefined, cdp ? options.wsEndpoint : undefined, !cdp);
  }
  return driveLaunchedChromium(options, async (launched) => {
    const pipe = new DevToolsPipe(launched.pipe.toBrowser, launched.pipe.fromBrowser, 'object');
    // Playwright's own folder goes in the profile (else one in the system's temporary folder, which a kill -9
    // leaves behind): removed with it, or at the next start. The browser writes downloads into it.
    const artifactsDir = await browserWritableFolder(launched.profileDir, 'playwright-artifacts-');
    const browser = await chromium.connectOverCDP(pipe, { timeout: options.timeoutMs, artifactsDir });
    return playwrightHandle(browser, ffmpegPath, launched, launched.wsEndpoint);
  });
}

/**
 * A Playwright server URL (`launchServer`, a grid's `/playwright` endpoint) or else a DevTools endpoint
 * (`http://host:9222`, `ws://host:9222/devtools/browser/<id>`). Errors never quote the endpoint: it may carry
 * a token (the kernel logs it redacted).
 */
async function connectRemote(endpoint: string, timeout: number): Promise<{ browser: Browser; cdp: boolean }> {
  const looksCdp = /^https?:/.test(endpoint) || endpoint.includes('/devtools/');
  let asPlaywright: unknown;
  if (!looksCdp) {
    try {
      return { browser: await chromium.connect(endpoint, { timeout }), cdp: false };
    } catch (error) {
      // Nobody listening: the DevTools protocol would fail the same way.
      if (isUnreachable(error)) throw new Error(`connecting failed: ${firstLine(error)}`);
      // A grid turning the session away would turn the second protocol away too: ask it once.
      const refusal = refusalOf(error, timeout);
      if (refusal) throw refusal;
      asPlaywright = error; // Perhaps not a Playwright server: try the DevTools protocol below.
    }
  }
  try {
    return { browser: await chromium.connectOverCDP(endpoint, { timeout }), cdp: true };
  } catch (error) {
    const refusal = refusalOf(error, timeout);
    if (refusal) throw refusal;
    if (asPlaywright === undefined) throw new Error(`connecting over the DevTools protocol failed: ${firstLine(error)}`);
    throw new Error(`connecting failed, as a Playwright server (${firstLine(asPlaywright)}) and over the DevTools protocol (${firstLine(error)})`);
  }
}

function isUnreachable(error: unknown): boolean {
  return /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ECONNRESET|EAI_AGAIN/.test(String((error as Error)?.message ?? error));
}

/** Playwright's messages append a multi-line call log (which quotes the URL): keep the first line. */
function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0]!.trim();
}

function playwrightHandle(
  browser: Browser,
  ffmpegPath: string | undefined,
  launched: LaunchedChromium | undefined,
  cdpEndpoint: string | undefined,
  /**
   * Over Playwright's own protocol the client rejects pending calls before it reports the disconnect, but it
   * closes every context first: a context closing by itself is the earliest sign the connection is gone.
   */
  contextCloseMeansGone = false,
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
  const onConnectionLost = () => {
    onGone();
    void browser.close().catch(() => undefined); // drops what is left of the connection, if anything
  };
  void launched?.exited.then(onGone);

  return {
    pid: launched?.pid,
    isConnected: () => !disconnected && browser.isConnected(),
    onDisconnected: (listener) => {
      if (disconnected) queueMicrotask(listener);
      else listeners.push(listener);
    },
    newContext: (options) =>
      openPlaywrightContext(browser, options, recordings, ffmpegPath, contextCloseMeansGone ? onConnectionLost : undefined),
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
