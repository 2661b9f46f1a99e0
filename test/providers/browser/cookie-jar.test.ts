import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCookieJar, createMemoryCookieStore, mergeCookies } from '../../../layers/browser-pool/cookie-jar.js';
import type { BrowserCookie } from '../../../kernel/contracts/browser.js';

const NOW = 1_800_000_000;
const cookie = (name: string, value: string, extra: Partial<BrowserCookie> = {}): BrowserCookie =>
  ({ name, value, domain: 'example.com', path: '/', expires: -1, ...extra });
const names = (cookies: BrowserCookie[]) => cookies.map((c) => `${c.name}=${c.value}`).sort();

describe('cookie jar merge', () => {
  it('takes new and changed cookies from the run', () => {
    const loaded = [cookie('a', '1')];
    const merged = mergeCookies(loaded, loaded, [cookie('a', '2'), cookie('b', '1')], NOW);
    assert.deepEqual(names(merged), ['a=2', 'b=1']);
  });

  it('removes cookies the run deleted, unless another run changed them meanwhile', () => {
    const loaded = [cookie('a', '1'), cookie('b', '1')];
    const current = [cookie('a', '1'), cookie('b', 'changed elsewhere')];
    assert.deepEqual(names(mergeCookies(current, loaded, [], NOW)), ['b=changed elsewhere']);
  });

  it('keeps what another run stored for cookies this run left untouched', () => {
    const loaded = [cookie('a', '1')];
    assert.deepEqual(names(mergeCookies([cookie('a', '9'), cookie('c', '1')], loaded, loaded, NOW)), ['a=9', 'c=1']);
  });

  it('keys cookies by name, domain and path', () => {
    const merged = mergeCookies([], [], [cookie('a', '1'), cookie('a', '2', { path: '/x' }), cookie('a', '3', { domain: '.other.org' })], NOW);
    assert.equal(merged.length, 3);
  });

  it('drops expired cookies and keeps session cookies', () => {
    const merged = mergeCookies([cookie('old', '1', { expires: NOW - 1 })], [], [cookie('s', '1'), cookie('later', '1', { expires: NOW + 60 })], NOW);
    assert.deepEqual(names(merged), ['later=1', 's=1']);
  });
});

describe('cookie jar', () => {
  it('loads unexpired cookies, persists merges through its store and clears by domain', async () => {
    const store = createMemoryCookieStore([cookie('gone', '1', { expires: NOW - 10 }), cookie('kept', '1', { domain: '.example.com' })]);
    const jar = createCookieJar(store, () => NOW * 1000);
    const loaded = await jar.load();
    assert.deepEqual(names(loaded), ['kept=1']);
    await jar.merge(loaded, [...loaded, cookie('other', '1', { domain: 'other.org' })]);
    assert.deepEqual(names(await store.get()), ['kept=1', 'other=1']);
    assert.equal(await jar.clear('example.com'), 1, 'example.com matches .example.com');
    assert.deepEqual(names(await jar.load()), ['other=1']);
    assert.equal(await jar.clear(), 1);
    assert.deepEqual(await store.get(), []);
  });

  it('applies merges that end together one after the other', async () => {
    let writes = 0;
    const memory = createMemoryCookieStore();
    const slow = {
      get: memory.get,
      update: async (change: (c: BrowserCookie[]) => BrowserCookie[]) => {
        const current = await memory.get();
        await new Promise((r) => setTimeout(r, 10));
        writes++;
        await memory.update(() => change(current));
      },
    };
    const jar = createCookieJar(slow, () => NOW * 1000);
    await Promise.all(['a', 'b', 'c'].map((name) => jar.merge([], [cookie(name, '1')])));
    assert.equal(writes, 3);
    assert.deepEqual(names(await jar.load()), ['a=1', 'b=1', 'c=1']);
  });
});
