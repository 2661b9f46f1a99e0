import type { BrowserCookie } from '../../kernel/contracts/browser.js';
import type { CookieJar, CookieStore } from '../../kernel/contracts/browser-pool.js';

export type { CookieJar, CookieStore } from '../../kernel/contracts/browser-pool.js';

export function cookieKey(c: Pick<BrowserCookie, 'name' | 'domain' | 'path'>): string {
  return `${c.name}\u0000${c.domain}\u0000${c.path}`;
}

export function isExpired(c: BrowserCookie, nowSeconds: number): boolean {
  return c.expires !== -1 && c.expires > 0 && c.expires <= nowSeconds;
}

function same(a: BrowserCookie, b: BrowserCookie): boolean {
  return a.value === b.value && a.expires === b.expires && a.httpOnly === b.httpOnly &&
    a.secure === b.secure && a.sameSite === b.sameSite;
}

/** True when a run ended with exactly the cookies it was given: merging them back changes nothing. */
export function sameCookies(loaded: BrowserCookie[], final: BrowserCookie[]): boolean {
  if (loaded.length !== final.length) return false;
  const before = new Map(loaded.map((c) => [cookieKey(c), c]));
  return final.every((c) => {
    const original = before.get(cookieKey(c));
    return original !== undefined && same(original, c);
  });
}

/** The three-way merge behind `CookieJar.merge`, pure for testing. */
export function mergeCookies(
  current: BrowserCookie[],
  loaded: BrowserCookie[],
  final: BrowserCookie[],
  nowSeconds: number,
): BrowserCookie[] {
  const jar = new Map(current.map((c) => [cookieKey(c), c]));
  const before = new Map(loaded.map((c) => [cookieKey(c), c]));
  const after = new Map(final.map((c) => [cookieKey(c), c]));
  for (const [key, cookie] of after) {
    const original = before.get(key);
    if (!original || !same(original, cookie)) jar.set(key, cookie);
  }
  for (const [key, original] of before) {
    const stored = jar.get(key);
    if (!after.has(key) && stored && same(stored, original)) jar.delete(key);
  }
  return [...jar.values()].filter((c) => !isExpired(c, nowSeconds));
}

function domainOf(domain: string): string {
  return domain.replace(/^\./, '').toLowerCase();
}

export function createCookieJar(store: CookieStore, now: () => number = Date.now): CookieJar {
  // Merges and clears run one after another, so two runs ending together both land.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const seconds = () => now() / 1000;
  return {
    async load() {
      return (await store.get()).filter((c) => !isExpired(c, seconds()));
    },
    // A run that changed no cookie writes nothing (its expired cookies are dropped by the next merge that writes).
    merge: async (loaded, final) => {
      if (sameCookies(loaded, final)) return;
      await serial(() => store.update((current) => mergeCookies(current, loaded, final, seconds())));
    },
    clear: (domain) =>
      serial(async () => {
        let removed = 0;
        await store.update((cookies) => {
          const keep = domain === undefined ? [] : cookies.filter((c) => domainOf(c.domain) !== domainOf(domain));
          removed = cookies.length - keep.length;
          return keep;
        });
        return removed;
      }),
  };
}

/** A jar store that lives as long as the process (tests, stateless set-ups). */
export function createMemoryCookieStore(initial: BrowserCookie[] = []): CookieStore {
  let cookies = [...initial];
  return {
    get: async () => [...cookies],
    update: async (change) => { cookies = [...change([...cookies])]; },
  };
}
