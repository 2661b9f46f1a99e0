// The engines' own downloaded Chromium: looked for without loading the engine when its cache holds none, and
// found where the engine itself says it is (checked against the real Playwright and Puppeteer, in a process
// whose environment points their caches at a temporary folder).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { playwrightBrowsersDir } from '../../../providers/browser/playwright/installed-chromium.js';
import { installedPuppeteerChromium } from '../../../providers/browser/puppeteer/installed-chromium.js';

const CHILD = path.resolve('test/providers/browser/fixtures/engine-browser-child.ts');

describe("the engines' downloaded Chromium", () => {
  let root: string;
  before(async () => { root = await mkdtemp(path.join(os.tmpdir(), 'taskloom-engine-cache-')); });
  after(() => rm(root, { recursive: true, force: true }));

  for (const [engine, variable] of [['playwright', 'PLAYWRIGHT_BROWSERS_PATH'], ['puppeteer', 'PUPPETEER_CACHE_DIR']] as const) {
    it(`${engine}: none in an empty cache; the one the engine itself points at once it is there`, { timeout: 120_000 }, async () => {
      const cache = path.join(root, engine);
      await mkdir(cache);
      const env: NodeJS.ProcessEnv = { ...process.env, [variable]: cache };
      delete env.PUPPETEER_EXECUTABLE_PATH;
      const out = execFileSync(process.execPath, ['--import', 'tsx', CHILD, engine], { env, encoding: 'utf8' });
      const { before: first, expected, after: second } = JSON.parse(out) as { before: string | null; expected: string; after: string | null };
      assert.equal(first, null);
      assert.ok(expected.startsWith(cache + path.sep), `${engine} keeps its browsers under ${variable} (${expected})`);
      assert.equal(second, expected);
    });
  }

  it("Playwright's browsers folder, by Playwright's rules", () => {
    const playwrightCore = path.dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
    assert.equal(playwrightBrowsersDir({ PLAYWRIGHT_BROWSERS_PATH: '0' }), path.join(playwrightCore, '.local-browsers'));
    assert.equal(playwrightBrowsersDir({ PLAYWRIGHT_BROWSERS_PATH: 'browsers', INIT_CWD: '/srv/app' }), '/srv/app/browsers');
    assert.equal(playwrightBrowsersDir({ PLAYWRIGHT_BROWSERS_PATH: '/opt/pw' }), '/opt/pw');
    if (process.platform === 'linux') {
      assert.equal(playwrightBrowsersDir({ XDG_CACHE_HOME: '/var/cache/me' }), '/var/cache/me/ms-playwright');
      assert.equal(playwrightBrowsersDir({}), path.join(os.homedir(), '.cache', 'ms-playwright'));
    }
  });

  it("Puppeteer's: none when its configuration names no browser and its cache is empty", async () => {
    assert.equal(await installedPuppeteerChromium({ cacheDirectory: path.join(root, 'nothing-here') }), undefined);
  });
});
