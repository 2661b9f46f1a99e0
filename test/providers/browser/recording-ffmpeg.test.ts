import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createPlaywrightDriver } from '../../../providers/browser/playwright/index.js';
import { createPuppeteerDriver } from '../../../providers/browser/puppeteer/index.js';
import { chromiumOrSkip } from '../../../testing/browser.contract.js';

const found = chromiumOrSkip();
const engines = [
  ['playwright', createPlaywrightDriver({ ffmpegPath: '/nonexistent/ffmpeg' })],
  ['puppeteer', createPuppeteerDriver({ ffmpegPath: '/nonexistent/ffmpeg' })],
] as const;

describe('recording without ffmpeg', { skip: found.skip }, () => {
  for (const [name, driver] of engines) {
    it(`${name}: newPage rejects with what to do, and the context still closes`, async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloom-novideo-'));
      const browser = await driver.launch({ executablePath: found.path, headless: true, args: [], timeoutMs: 30_000 });
      try {
        const context = await browser.newContext({ recordVideoDir: dir });
        await assert.rejects(context.newPage(), (error: Error) => {
          assert.match(error.message, /ffmpeg not found at \/nonexistent\/ffmpeg/);
          assert.match(error.message, /set FFMPEG_PATH or install ffmpeg \(apt-get install ffmpeg\)/);
          return true;
        });
        assert.deepEqual(await context.close(), { videoPath: undefined });
        assert.deepEqual(await readdir(dir), []);
      } finally {
        await browser.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
