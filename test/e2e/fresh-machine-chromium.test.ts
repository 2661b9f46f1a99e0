// A machine with nothing but Node: no Chromium on the PATH, no BROWSER_EXECUTABLE_PATH, the engines' browser
// caches empty. The service (its own process, as `npm start` runs it) unpacks the headless Chromium packaged in
// @sparticuz/chromium into DATA_DIR and runs a real task on it, with each engine; a window is refused with
// what to install.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { spawnService } from '../support/process.js';
import { makeTempDir, request } from '../support/service.js';

const packaged = packagedVersion();
const skip = process.platform !== 'linux' || process.arch !== 'x64'
  ? `the Chromium packaged in @sparticuz/chromium is built for Linux on x64 only (this is ${process.platform} on ${process.arch})`
  : packaged ? false : '@sparticuz/chromium is not installed (npm install --omit=optional): nothing packaged to run';
if (skip) console.log(`# skipped: ${skip}`);

describe('a fresh machine: no Chromium installed', { skip, timeout: 300_000 }, () => {
  let root: string;
  let dataDir: string;
  let env: Record<string, string>;
  let pages: PagesServer;

  before(async () => {
    root = await makeTempDir('taskloom-fresh-');
    const bin = path.join(root, 'bin');
    dataDir = path.join(root, 'data');
    await mkdir(bin);
    await symlink(process.execPath, path.join(bin, 'node'));
    await mkdir(path.join(root, 'playwright-browsers'));
    await mkdir(path.join(root, 'puppeteer-cache'));
    env = {
      PATH: bin,
      BROWSER_EXECUTABLE_PATH: '', // unset
      PLAYWRIGHT_BROWSERS_PATH: path.join(root, 'playwright-browsers'),
      PUPPETEER_CACHE_DIR: path.join(root, 'puppeteer-cache'),
      DATA_DIR: dataDir,
      AUTH_DISABLED: 'true',
      ALLOW_PRIVATE_NETWORKS: 'true',
    };
    pages = await startPagesServer();
  });
  after(async () => {
    await pages?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  for (const [engine, unpacks] of [['playwright', true], ['puppeteer', false]] as const) {
    it(`${engine}: a task runs on the packaged Chromium, unpacked into DATA_DIR ${unpacks ? 'at start-up' : 'by the first start and reused'}`, async () => {
      const svc = await spawnService({ ...env, BROWSER_ENGINE: engine });
      try {
        const task = await request(svc.baseUrl, 'POST', '/api/tasks', { body: {
          name: 'which browser', url: `${pages.origin}/index.html`, mode: 'agent', actions: [],
          extractionScript: 'return navigator.userAgent',
        } });
        assert.equal(task.status, 200, task.text);
        const run = await request(svc.baseUrl, 'POST', `/api/tasks/${task.body.id}/api`);
        assert.equal(run.body.status, 'success', run.text);
        const major = packaged!.split('.')[0];
        // Debian's chromium is another version: the packaged browser served the page.
        assert.match(String(run.body.result.data), new RegExp(`HeadlessChrome/${major}\\.`));

        const executable = path.join(dataDir, 'browsers', `sparticuz-chromium-${packaged}`, 'chromium');
        const chosen = logLines(svc.output()).filter((line) => String(line.msg).startsWith('Chromium to launch'));
        assert.equal(chosen.length, 1, 'the choice is logged once');
        assert.deepEqual([chosen[0]!.executable, chosen[0]!.source], [executable, 'package']);
        const unpacking = logLines(svc.output()).filter((line) => line.msg === 'unpacking the packaged headless Chromium (once)');
        assert.equal(unpacking.length, unpacks ? 1 : 0);
      } finally {
        await svc.stop();
      }
    });
  }

  it('a window (POST /api/browser/open, a headful run) is refused with what to install', async () => {
    const svc = await spawnService(env);
    try {
      const open = await request(svc.baseUrl, 'POST', '/api/browser/open', { body: { headless: false } });
      assert.equal(open.status, 502, open.text);
      const reason = JSON.stringify(open.body);
      assert.match(reason, /apt-get install chromium/);
      assert.match(reason, /BROWSER_EXECUTABLE_PATH/);
      assert.match(reason, /headless Chromium packaged with taskloom, cannot show one/);

      const task = await request(svc.baseUrl, 'POST', '/api/tasks', { body: {
        name: 'headful', url: `${pages.origin}/index.html`, mode: 'headful', actions: [], extractionScript: 'return 1',
      } });
      const run = await request(svc.baseUrl, 'POST', `/api/tasks/${task.body.id}/api`);
      assert.equal(run.body.status, 'error', run.text);
      assert.match(run.text, /apt-get install chromium/);

      // Headless, the managed browser is the packaged one.
      const headless = await request(svc.baseUrl, 'POST', '/api/browser/open', { body: { headless: true } });
      assert.equal(headless.status, 200, headless.text);
      assert.equal(headless.body.headless, true);
    } finally {
      await svc.stop();
    }
  });
});

function packagedVersion(): string | undefined {
  try {
    return (JSON.parse(readFileSync('node_modules/@sparticuz/chromium/package.json', 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

function logLines(output: string): Array<Record<string, unknown>> {
  return output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
}
