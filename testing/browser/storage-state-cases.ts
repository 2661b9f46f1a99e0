// The browser contract's 1.4 members: a context's cookies and local storage read with `storageState()` and given to a
// new context with `ContextOptions.storageState`, on two origins (the pages server under both loopback names).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { BrowserHandle, BrowserStorageState } from '../../kernel/contracts/browser.js';
import type { PagesServer } from './pages-server.js';

const T = 5000;

/** The same server under the other loopback name: another origin, and another site for cookies. */
const otherOrigin = (origin: string) => origin.replace('127.0.0.1', 'localhost');

const storageOf = 'return { items: Object.fromEntries(Object.entries(localStorage)), cookie: document.cookie }';

export function storageStateCases(current: () => { browser: BrowserHandle; pages: PagesServer }): void {
  it('storageState reads cookies and each origin\'s local storage; a new context given it starts with them (1.4)', async (t) => {
    const { browser, pages } = current();
    const first = await browser.newContext({});
    let state: BrowserStorageState;
    try {
      if (!first.storageState) {
        t.skip('this engine has no ContextHandle.storageState (optional, contract 1.4)');
        return;
      }
      const page = await first.newPage();
      await page.goto(`${pages.origin}/index.html`, T);
      await page.evaluate('localStorage.setItem("token", "tok-1"); localStorage.setItem("user", "ada"); document.cookie = "sid=abc; path=/"', {});
      // A frame of another origin keeps storage of its own: read too.
      await page.goto(`${otherOrigin(pages.origin)}/index.html`, T);
      await page.evaluate('localStorage.setItem("theme", "dark")', {});
      const second = await first.newPage();
      await second.goto(`${pages.origin}/index.html`, T);
      state = await first.storageState();
    } finally {
      await first.close();
    }
    assert.deepEqual(state.cookies.map((c) => `${c.name}=${c.value}@${c.domain}`), ['sid=abc@127.0.0.1']);
    const byOrigin = new Map(state.origins.map((o) => [o.origin, Object.fromEntries(o.localStorage.map((i) => [i.name, i.value]))]));
    assert.deepEqual(byOrigin.get(pages.origin), { token: 'tok-1', user: 'ada' });
    assert.deepEqual(byOrigin.get(otherOrigin(pages.origin)), { theme: 'dark' });

    const next = await browser.newContext({ storageState: state });
    try {
      const page = await next.newPage();
      await page.goto(`${pages.origin}/echo-cookies`, T);
      assert.match(await page.content(), /sid=abc/, 'the server sees the cookie on the first request');
      await page.goto(`${pages.origin}/index.html`, T);
      assert.deepEqual(await page.evaluate(storageOf, {}), { items: { token: 'tok-1', user: 'ada' }, cookie: 'sid=abc' });
      await page.goto(`${otherOrigin(pages.origin)}/index.html`, T);
      assert.deepEqual(await page.evaluate(storageOf, {}), { items: { theme: 'dark' }, cookie: '' });
      // Seeded once, as the context was made: a page that clears its storage finds it clear after a reload.
      await page.evaluate('localStorage.clear()', {});
      await page.goto(`${otherOrigin(pages.origin)}/index.html`, T);
      assert.deepEqual(await page.evaluate(storageOf, {}), { items: {}, cookie: '' });
      assert.equal((await next.storageState!()).origins.some((o) => o.origin === otherOrigin(pages.origin)), false);
    } finally {
      await next.close();
    }
    const fresh = await browser.newContext({});
    try {
      const page = await fresh.newPage();
      await page.goto(`${pages.origin}/index.html`, T);
      assert.deepEqual(await page.evaluate(storageOf, {}), { items: {}, cookie: '' }, 'another context shares nothing');
    } finally {
      await fresh.close();
    }
  });
}
