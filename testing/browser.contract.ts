// The bar every browser engine meets, against real Chromium and the local fixture pages. A third-party
// engine runs it with its own factory:
//   import { browserContract } from 'taskloom/testing';
//   browserContract('my-engine', async () => createMyDriver());
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserDriver, BrowserHandle, BrowserPage, ContextHandle } from '../kernel/contracts/browser.js';
import { ChromiumNotFoundError, detectChromium } from '../layers/browser-pool/detect-chromium.js';
import { downloadBytes, startCountingProxy, startPagesServer, type PagesServer } from './browser/pages-server.js';
import { browserPoolCases } from './browser/pool-cases.js';
import { storageStateCases } from './browser/storage-state-cases.js';
import { webCases } from './browser/web-cases.js';

export type DriverFactory = () => BrowserDriver | Promise<BrowserDriver>;

const T = 5000;

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export function browserContract(name: string, makeDriver: DriverFactory): void {
  const chromium = chromiumOrSkip();
  describe(`browser engine contract: ${name}`, { skip: chromium.skip }, () => {
    let pages: PagesServer;
    let driver: BrowserDriver;
    let browser: BrowserHandle;
    let context: ContextHandle;
    let page: BrowserPage;

    before(async () => {
      pages = await startPagesServer();
      driver = await makeDriver();
      browser = await driver.launch({ executablePath: chromium.path, headless: true, args: [], timeoutMs: 30_000 });
      context = await browser.newContext({});
      page = await context.newPage();
    });
    after(async () => {
      await context?.close().catch(() => undefined);
      await browser?.close().catch(() => undefined);
      browser?.kill();
      await pages?.close();
    });

    it('launches a local Chromium with a pid and a loopback DevTools endpoint', () => {
      assert.ok(browser.isConnected());
      assert.equal(typeof browser.pid, 'number');
      const endpoint = browser.cdpEndpoint?.();
      if (endpoint !== undefined) assert.match(endpoint, /^ws:\/\/127\.0\.0\.1:\d+\//);
    });

    it('goto, url, title and content', async () => {
      await page.goto(`${pages.origin}/index.html`, T);
      assert.equal(page.url(), `${pages.origin}/index.html`);
      assert.equal(await page.title(), 'Fixture home');
      assert.match(await page.content(), /<li class="item">beta<\/li>/);
      await page.goto(`${pages.origin}/second.html`, T);
      assert.equal(await page.title(), 'Second page');
    });

    it('click follows links and fires handlers; hover fires mouseenter', async () => {
      await page.goto(`${pages.origin}/index.html`, T);
      await page.click('#increment', T);
      await page.click('#increment', T);
      await page.hover('#hover-me', T);
      assert.deepEqual(await page.evaluate('return [document.querySelector("#count").textContent, document.querySelector("#hover-result").textContent]', {}), ['2', 'hovered']);
      await page.click('#to-second', T);
      await page.waitForSelector('#back', T);
      assert.equal(await page.title(), 'Second page');
    });

    it('click picks the first match; text= and XPath selectors work on both engines', async () => {
      await page.goto(`${pages.origin}/index.html`, T);
      const picked = () => page.evaluate('return document.querySelector("#picked").textContent', {});
      await page.click('.item', T);
      assert.equal(await picked(), 'alpha');
      await page.click('text=gamma', T);
      assert.equal(await picked(), 'gamma');
      await page.click('//li[2]', T);
      assert.equal(await picked(), 'beta');
    });

    it('type and press, with and without a selector', async () => {
      await page.goto(`${pages.origin}/index.html`, T);
      await page.type('#name', 'Ada', T);
      await page.click('#greet', T);
      assert.equal(await page.evaluate('return document.querySelector("#greeting").textContent', {}), 'Hello, Ada');
      await page.press('Shift+B', '#keys', T);
      assert.equal(await page.evaluate('return document.querySelector("#last-key").textContent', {}), 'Shift+B');
      await page.press('x', undefined, T); // #keys still has the focus
      assert.equal(await page.evaluate('return document.querySelector("#last-key").textContent', {}), 'x');
      await page.goto(`${pages.origin}/form.html`, T);
      await page.type('#query', 'loom', T);
      await page.press('Enter', '#query', T);
      await page.waitForSelector('#result', T);
      assert.equal(await page.evaluate('return document.querySelector("#result").textContent', {}), 'q=loom');
    });

    it('waitForSelector waits for a late element and times out naming the selector', async () => {
      await page.goto(`${pages.origin}/index.html`, T);
      await page.waitForSelector('#later', T);
      const started = Date.now();
      await assert.rejects(page.waitForSelector('#hidden', 400), (error: Error) => {
        assert.match(error.message, /#hidden/);
        assert.match(error.message, /400 ms/);
        return true;
      });
      assert.ok(Date.now() - started < 3000, 'the timeout is honoured');
      await assert.rejects(page.click('#missing', 300), /#missing/);
    });

    it('evaluate runs the body as an async function with args and returns JSON values', async () => {
      await page.goto(`${pages.origin}/index.html`, T);
      assert.equal(await page.evaluate('return args.a + args.b', { a: 2, b: 3 }), 5);
      assert.deepEqual(await page.evaluate('return { list: args.list.map((s) => s.toUpperCase()), n: null }', { list: ['x', 'y'] }), { list: ['X', 'Y'], n: null });
      assert.deepEqual(await page.evaluate('return [...document.querySelectorAll(".item")].map((li) => li.textContent)', {}), ['alpha', 'beta', 'gamma']);
      assert.equal(await page.evaluate('await new Promise((r) => setTimeout(r, 30)); return "later"', {}), 'later');
      assert.equal(await page.evaluate('const x = 1; // no return\n', {}), undefined);
      assert.equal(await page.evaluate('return args.quote', { quote: '`${"}\'\u2028' }), '`${"}\'\u2028');
      await assert.rejects(page.evaluate('throw new Error("boom in page")', {}), /boom in page/);
      await assert.rejects(page.evaluate('return (', {}));
    });

    it('evaluate runs in the page, not in the service', async () => {
      await page.goto(`${pages.origin}/index.html`, T);
      const seen = await page.evaluate('return [document.title, typeof window, typeof process, typeof require, typeof globalThis.Buffer]', {});
      assert.deepEqual(seen, ['Fixture home', 'object', 'undefined', 'undefined', 'undefined']);
    });

    it('screenshots: png, jpeg and full page', async () => {
      await page.goto(`${pages.origin}/index.html`, T);
      const png = await page.screenshot({ fullPage: false, type: 'png' });
      assert.equal(png.subarray(0, 4).toString('hex'), '89504e47');
      assert.deepEqual(pngSize(png), { width: 1280, height: 720 });
      const jpeg = await page.screenshot({ fullPage: false, type: 'jpeg', quality: 60 });
      assert.equal(jpeg.subarray(0, 2).toString('hex'), 'ffd8');
      const full = await page.screenshot({ fullPage: true, type: 'png' });
      assert.ok(pngSize(full).height > 2400, `full page is ${pngSize(full).height} px high`);
    });

    it('a context gets its viewport and user agent', async () => {
      const own = await browser.newContext({ viewport: { width: 640, height: 480 }, userAgent: 'taskloom-contract/1' });
      try {
        const p = await own.newPage();
        await p.goto(`${pages.origin}/second.html`, T);
        assert.deepEqual(await p.evaluate('return [innerWidth, innerHeight, navigator.userAgent]', {}), [640, 480, 'taskloom-contract/1']);
        assert.deepEqual(pngSize(await p.screenshot({ fullPage: false, type: 'png' })), { width: 640, height: 480 });
      } finally {
        await own.close();
      }
    });

    it('setInputFiles gives a file input its files; download keeps the file a click downloads (contract 1.3)', async (t) => {
      const own = await browser.newContext({ acceptDownloads: true });
      try {
        const p = await own.newPage();
        if (!p.setInputFiles || !p.download) return t.skip('the engine has no setInputFiles/download (optional members)');
        await p.goto(`${pages.origin}/index.html`, T);
        await p.evaluate(`document.body.insertAdjacentHTML('beforeend',
          '<input id="up" type="file" multiple hidden><a id="dl" href="/download?name=contract.bin&bytes=5000">get</a>')`, {});
        await p.setInputFiles('#up', [
          { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('first') }, { name: 'b.json', mimeType: 'application/json', buffer: Buffer.from('{}') },
        ], T);
        const got = await p.evaluate(`return Promise.all([...document.getElementById('up').files].map(async (f) => [f.name, f.type, await f.text()]))`, {});
        assert.deepEqual(got, [['a.txt', 'text/plain', 'first'], ['b.json', 'application/json', '{}']]);
        const file = await p.download('#dl', 15_000);
        try {
          assert.equal(file.name, 'contract.bin');
          assert.ok((await readFile(file.path)).equals(downloadBytes(5000)));
        } finally {
          await rm(file.path, { force: true });
        }
      } finally {
        await own.close();
      }
    });

    it('cookies go in before the first page and come out in the contract shape', async () => {
      const host = '127.0.0.1';
      const own = await browser.newContext({
        cookies: [{ name: 'preset', value: 'v1', domain: host, path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' }],
      });
      try {
        const p = await own.newPage();
        await p.goto(`${pages.origin}/echo-cookies`, T);
        assert.match(await p.content(), /preset=v1/);
        await p.goto(`${pages.origin}/cookies.html`, T);
        const byName = new Map((await own.cookies()).map((c) => [c.name, c]));
        assert.deepEqual([...byName.keys()].sort(), ['from_script', 'preset', 'session_id', 'visit']);
        const session = byName.get('session_id')!;
        assert.equal(session.expires, -1);
        assert.equal(session.httpOnly, true);
        assert.equal(session.domain, host);
        assert.equal(session.path, '/');
        const visit = byName.get('visit')!;
        assert.ok(visit.expires > Date.now() / 1000 + 3000 && visit.expires < Date.now() / 1000 + 3700, `visit expires ${visit.expires}`);
      } finally {
        await own.close();
      }
      const fresh = await browser.newContext({});
      assert.deepEqual(await fresh.cookies(), [], 'a new context starts without cookies');
      await fresh.close();
    });

    it('a context uses its proxy, with credentials', async () => {
      const proxy = await startCountingProxy({ username: 'loom', password: 's3cret' });
      const own = await browser.newContext({ proxy: { server: proxy.server, username: 'loom', password: 's3cret' } });
      try {
        const p = await own.newPage();
        await p.goto('http://proxied.example.test/hello', T);
        assert.equal(await p.title(), 'Proxied proxied.example.test');
        assert.ok(proxy.hosts.includes('proxied.example.test'));
        const plain = await browser.newContext({});
        await (await plain.newPage()).goto(`${pages.origin}/second.html`, T);
        await plain.close();
        assert.ok(!proxy.hosts.includes(new URL(pages.origin).host), 'a context without a proxy does not use it');
      } finally {
        await own.close();
        await proxy.close();
      }
    });

    it('records a playable webm of the first page', { skip: recordingSkip() }, async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloom-video-'));
      try {
        const own = await browser.newContext({ recordVideoDir: dir, viewport: { width: 640, height: 360 } });
        const p = await own.newPage();
        await p.goto(`${pages.origin}/animated.html`, T);
        await new Promise((resolve) => setTimeout(resolve, 1200));
        const { videoPath } = await own.close();
        assert.ok(videoPath?.startsWith(dir) && videoPath.endsWith('.webm'), `video at ${videoPath}`);
        const probe = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height:format=duration', '-of', 'json', videoPath!], { encoding: 'utf8' });
        assert.equal(probe.status, 0, probe.stderr);
        const info = JSON.parse(probe.stdout) as { streams: Array<{ codec_name: string; width: number; height: number }>; format: { duration: string } };
        assert.equal(info.streams[0].codec_name, 'vp8');
        assert.deepEqual([info.streams[0].width, info.streams[0].height], [640, 360]);
        assert.ok(Number(info.format.duration) > 0.8, `duration ${info.format.duration}`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('connects to a running browser by its DevTools endpoint and leaves it running', async (t) => {
      const endpoint = browser.cdpEndpoint?.();
      if (!endpoint) return t.skip('this engine exposes no DevTools endpoint for its browser');
      const remote = await driver.launch({ wsEndpoint: endpoint, headless: true, args: [], timeoutMs: 10_000 });
      assert.equal(remote.pid, undefined);
      const own = await remote.newContext({});
      const p = await own.newPage();
      await p.goto(`${pages.origin}/second.html`, T);
      assert.equal(await p.title(), 'Second page');
      await own.close();
      await remote.close();
      assert.ok(browser.isConnected(), 'closing a connection does not close the remote browser');
    });

    webCases(() => ({ page, pages }));
    storageStateCases(() => ({ browser, pages }));
    browserPoolCases({ makeDriver, pages: () => pages, executablePath: chromium.path! });
  });
}

/** The Chromium the suite launches, or why the whole suite is skipped. */
export function chromiumOrSkip(): { path?: string; skip: string | false } {
  try {
    return { path: detectChromium({ configuredPath: process.env.BROWSER_EXECUTABLE_PATH }), skip: false };
  } catch (error) {
    if (!(error instanceof ChromiumNotFoundError)) throw error;
    return { skip: error.message };
  }
}

function recordingSkip(): string | false {
  for (const tool of ['ffmpeg', 'ffprobe']) {
    if (spawnSync(tool, ['-version']).status !== 0) return `${tool} is not installed (apt-get install ffmpeg)`;
  }
  return false;
}
