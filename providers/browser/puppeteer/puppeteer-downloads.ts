// Downloads of a Puppeteer context. Puppeteer has no download event: the context's downloads go, each under its
// DevTools guid, into a folder of its own (Browser.setDownloadBehavior `allowAndName` with events), and a file
// whose guid reports `completed` there is the one a `download` waits for. The folder goes with the context.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession } from 'puppeteer';
import { browserWritableFolder } from '../shared/browser-folder.js';
import { timeoutError } from '../shared/page-helpers.js';

export interface ContextDownloads {
  /** The next download to arrive whole in this context, within `timeoutMs` (0: no limit). */
  next(timeoutMs: number, what: string): Promise<{ name: string; path: string }>;
  close(): Promise<void>;
}

interface Waiter {
  resolve(file: { name: string; path: string }): void;
  reject(error: Error): void;
}

export async function watchDownloads(browser: Browser, contextId: string, parentDir?: string): Promise<ContextDownloads> {
  const dir = parentDir ? await browserWritableFolder(parentDir, 'downloads-') : await fsp.mkdtemp(path.join(os.tmpdir(), 'taskloom-downloads-'));
  let session: CDPSession | undefined;
  const names = new Map<string, string>();
  const waiters: Waiter[] = [];
  try {
    session = await browser.target().createCDPSession();
    session.on('Browser.downloadWillBegin', (event: { guid: string; suggestedFilename: string }) => {
      names.set(event.guid, event.suggestedFilename);
    });
    session.on('Browser.downloadProgress', (event: { guid: string; state: string }) => {
      const name = names.get(event.guid);
      if (name === undefined || event.state === 'inProgress') return;
      names.delete(event.guid);
      const file = path.join(dir, event.guid);
      if (!fs.existsSync(file) && event.state === 'completed') return; // another context's download
      const waiter = waiters.shift();
      if (event.state === 'completed') waiter?.resolve({ name, path: file });
      else waiter?.reject(new Error(`the download of ${name} was ${event.state}`));
    });
    await session.send('Browser.setDownloadBehavior', {
      behavior: 'allowAndName', downloadPath: dir, browserContextId: contextId, eventsEnabled: true,
    });
  } catch (error) {
    await session?.detach().catch(() => undefined);
    await fsp.rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    next(timeoutMs, what) {
      return new Promise((resolve, reject) => {
        const timer = timeoutMs > 0 ? setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(timeoutError(what, timeoutMs, undefined));
        }, timeoutMs) : undefined;
        const waiter: Waiter = {
          resolve: (file) => { clearTimeout(timer); resolve(file); },
          reject: (error) => { clearTimeout(timer); reject(error); },
        };
        waiters.push(waiter);
      });
    },
    async close() {
      for (const waiter of waiters.splice(0)) waiter.reject(new Error('the context closed before the download arrived'));
      await session?.detach().catch(() => undefined);
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
