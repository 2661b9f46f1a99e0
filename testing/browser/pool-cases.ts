// The browser pool's part of the engine contract (testing/browser.contract.ts): isolation, contexts
// that always close, hung page scripts, kill timers, crash recovery, the cookie jar and a clean shutdown.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBrowserPool, type BrowserPool } from '../../layers/browser-pool/browser-pool.js';
import type { BrowserDriver, BrowserHandle, ContextHandle } from '../../kernel/contracts/browser.js';
import type { DriverFactory } from '../browser.contract.js';
import type { PagesServer } from './pages-server.js';
import { liveGroupMembers, profileDirOf, waitFor } from './chromium-processes.js';
import { silentLogger } from '../loggers.js';

export interface PoolCaseEnv {
  makeDriver: DriverFactory;
  pages(): PagesServer;
  executablePath: string;
}

const T = 5000;
const HUNG_SCRIPT = 'await new Promise((r) => setTimeout(r, 20)); while (true) {}';

export function browserPoolCases(env: PoolCaseEnv): void {
  describe('through the browser pool', () => {
    let driver: BrowserDriver;
    let pool: BrowserPool;
    const makePool = (d: BrowserDriver, killAfterMs = 2000) =>
      createBrowserPool({ driver: d, config: { browserExecutablePath: env.executablePath }, logger: silentLogger, killAfterMs });
    const visit = (path: string) => async (context: ContextHandle) => {
      const page = await context.newPage();
      await page.goto(`${env.pages().origin}${path}`, T);
      return page;
    };

    before(async () => {
      driver = await env.makeDriver();
      pool = makePool(driver);
    });
    after(() => pool.close());

    it('creating a pool launches nothing; the first run does', async () => {
      assert.equal(pool.browserPid(), undefined);
      const outcome = await pool.withContext({}, async (c) => (await visit('/second.html')(c)).title());
      assert.deepEqual(outcome, { status: 'ok', value: 'Second page' });
      assert.equal(typeof pool.browserPid(), 'number');
    });

    it('each run gets a fresh isolated context, closed afterwards', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      let marked!: () => void;
      const isMarked = new Promise<void>((resolve) => { marked = resolve; });
      const first = pool.withContext({}, async (c) => {
        const page = await visit('/set-cookie?name=iso&value=first')(c);
        await page.evaluate('localStorage.setItem("k", "first")', {});
        marked();
        await held;
      });
      await isMarked;
      const second = await pool.withContext({}, async (c) => {
        assert.equal(pool.openContexts(), 2);
        const page = await visit('/echo-cookies')(c);
        return [await page.evaluate('return document.body.innerText', {}), await page.evaluate('return localStorage.getItem("k")', {})];
      });
      release();
      assert.deepEqual(second, { status: 'ok', value: ['', null] });
      assert.equal((await first).status, 'ok');
      assert.equal(pool.openContexts(), 0);
    });

    it('a run that throws ends as error and its context is closed', async () => {
      const outcome = await pool.withContext({}, async (c) => {
        await visit('/index.html')(c);
        throw new Error('run failed on purpose');
      });
      assert.equal(outcome.status, 'error');
      assert.match(outcome.status === 'error' ? outcome.error.message : '', /on purpose/);
      assert.equal(pool.openContexts(), 0);
    });

    it('a page script that never ends times out while the service keeps answering', async () => {
      const started = Date.now();
      const running = pool.withContext({}, async (c) => (await visit('/index.html')(c)).evaluate(HUNG_SCRIPT, {}), { timeoutMs: 1500 });
      await sleep(800);
      const asked = Date.now();
      const answer = await fetch(`${env.pages().origin}/echo-cookies`);
      assert.equal(answer.status, 200);
      assert.ok(Date.now() - asked < 1000, `a local request took ${Date.now() - asked} ms during the hung script`);
      const outcome = await running;
      assert.equal(outcome.status, 'timeout');
      assert.ok(Date.now() - started < 1500 + 2000 + 2000, `ended after ${Date.now() - started} ms`);
      assert.equal(pool.openContexts(), 0);
      const next = await pool.withContext({}, async (c) => (await visit('/second.html')(c)).title());
      assert.deepEqual(next, { status: 'ok', value: 'Second page' });
    });

    it('aborting the signal ends the run as aborted', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('user cancelled')), 300);
      const outcome = await pool.withContext({}, visit('/slow?ms=4000'), { signal: controller.signal });
      assert.equal(outcome.status, 'aborted');
      assert.match(outcome.status === 'aborted' ? outcome.error.message : '', /user cancelled/);
      assert.equal(pool.openContexts(), 0);
    });

    it('relaunches the browser after it crashed', async () => {
      const pid = pool.browserPid()!;
      process.kill(pid, 'SIGKILL');
      await waitFor(() => liveGroupMembers(pid).length === 0, 3000, 'the killed browser to be gone');
      const outcome = await pool.withContext({}, async (c) => (await visit('/second.html')(c)).title());
      assert.deepEqual(outcome, { status: 'ok', value: 'Second page' });
      assert.notEqual(pool.browserPid(), pid);
    });

    it('kills the browser when a context does not close in time, and relaunches', async () => {
      const stuck = makePool(neverClosingContexts(driver), 800);
      try {
        const first = await stuck.withContext({}, async (c) => (await visit('/second.html')(c)).title());
        assert.deepEqual(first, { status: 'ok', value: 'Second page' });
        assert.equal(stuck.openContexts(), 0);
        assert.equal(stuck.browserPid(), undefined, 'the wedged browser was given up');
        const second = await stuck.withContext({}, async (c) => (await visit('/index.html')(c)).title());
        assert.deepEqual(second, { status: 'ok', value: 'Fixture home' });
      } finally {
        await stuck.close();
      }
    });

    it('kept cookies load into each run and merge back; stateless runs see none', async () => {
      await pool.withContext({ keepCookies: true }, visit('/cookies.html'));
      const jar = await pool.cookieJar.load();
      assert.deepEqual(jar.map((c) => c.name).sort(), ['from_script', 'session_id', 'visit']);
      const visitCount = jar.find((c) => c.name === 'visit')!.value;
      const seen = await pool.withContext({ keepCookies: true }, async (c) => {
        const page = await visit('/echo-cookies')(c);
        const text = await page.evaluate('return document.body.innerText', {});
        await page.goto(`${env.pages().origin}/delete-cookie?name=visit`, T);
        return text;
      });
      assert.equal(seen.status, 'ok');
      assert.ok(String(seen.status === 'ok' && seen.value).includes(`visit=${visitCount}`), 'the next run sends the kept cookie');
      assert.deepEqual((await pool.cookieJar.load()).map((c) => c.name).sort(), ['from_script', 'session_id'], 'the run deleted visit');
      const stateless = await pool.withContext({}, async (c) => (await visit('/echo-cookies')(c)).evaluate('return document.body.innerText', {}));
      assert.deepEqual(stateless, { status: 'ok', value: '' });
      await Promise.all(['p1', 'p2'].map((name) => pool.withContext({ keepCookies: true }, visit(`/set-cookie?name=${name}&value=x&maxAge=600`))));
      assert.deepEqual((await pool.cookieJar.load()).map((c) => c.name).sort(), ['from_script', 'p1', 'p2', 'session_id'], 'parallel runs both land');
      assert.equal(await pool.cookieJar.clear('127.0.0.1'), 4);
      assert.deepEqual(await pool.cookieJar.load(), []);
    });

    it('close() ends running contexts and leaves no Chromium process or profile', async () => {
      const own = makePool(driver);
      await own.withContext({}, visit('/second.html'));
      const pid = own.browserPid()!;
      const profile = profileDirOf(pid);
      assert.ok(profile && existsSync(profile), `profile directory ${profile}`);
      assert.ok(liveGroupMembers(pid).length > 1, 'Chromium runs several processes');
      const hung = own.withContext({}, async (c) => (await visit('/index.html')(c)).evaluate(HUNG_SCRIPT, {}));
      await sleep(500);
      await own.close();
      assert.equal((await hung).status, 'aborted');
      await waitFor(() => liveGroupMembers(pid).length === 0, 3000, 'every Chromium process to end');
      await waitFor(() => !existsSync(profile!), 3000, 'the profile directory to be removed');
      assert.equal((await own.withContext({}, visit('/second.html'))).status, 'aborted');
    });
  });
}

/** The real engine, except that closing a context never finishes (as with a wedged browser). */
function neverClosingContexts(real: BrowserDriver): BrowserDriver {
  return {
    id: `${real.id}-stuck`,
    async launch(options) {
      const handle = await real.launch(options);
      const wrapped: BrowserHandle = {
        pid: handle.pid,
        isConnected: () => handle.isConnected(),
        onDisconnected: (listener) => handle.onDisconnected(listener),
        close: () => handle.close(),
        kill: () => handle.kill(),
        async newContext(contextOptions) {
          const context = await handle.newContext(contextOptions);
          return { ...context, close: () => new Promise(() => undefined) };
        },
      };
      return wrapped;
    },
  };
}
