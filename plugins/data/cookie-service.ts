import type { BrowserCookie } from '../../kernel/contracts/browser.js';
import type { SettingsStore } from '../../kernel/contracts/storage.js';

/**
 * The settings key of the browser cookie jar (kernel/browser/cookie-jar.ts keeps its cookies there).
 * Defined here only because the jar does not export it yet.
 */
export const COOKIE_JAR_KEY = 'browser.cookies';
/** What every response shows in place of a cookie value. */
export const COOKIE_MASK = '********';

/** A cookie as the endpoints show it: the value never leaves the service. */
export interface PublicCookie {
  name: string;
  value: typeof COOKIE_MASK;
  domain: string;
  path: string;
  expires: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** `.Example.com` and `example.com` name the same domain, as in the cookie jar. */
export const normalizeDomain = (domain: string) => domain.trim().replace(/^\./, '').toLowerCase();

const jarOf = (value: unknown): BrowserCookie[] =>
  Array.isArray(value) ? value.filter((c): c is BrowserCookie => typeof c === 'object' && c !== null) : [];

function masked(cookie: BrowserCookie): PublicCookie {
  const { name, domain, path, expires, httpOnly, secure, sameSite } = cookie;
  return {
    name: String(name), value: COOKIE_MASK, domain: String(domain), path: String(path ?? '/'),
    expires: typeof expires === 'number' ? expires : -1,
    ...(httpOnly === undefined ? {} : { httpOnly }),
    ...(secure === undefined ? {} : { secure }),
    ...(sameSite === undefined ? {} : { sameSite }),
  };
}

export type CookieService = ReturnType<typeof createCookieService>;

/** Lists and deletes the stored browser cookies; every change is one atomic settings update. */
export function createCookieService(settings: SettingsStore) {
  /** Removes the cookies `drop` picks; resolves to how many went. */
  async function removeWhere(drop: (cookie: BrowserCookie) => boolean): Promise<number> {
    let deleted = 0;
    await settings.update<unknown>(COOKIE_JAR_KEY, (current) => {
      const cookies = jarOf(current);
      const keep = cookies.filter((c) => !drop(c));
      deleted = cookies.length - keep.length; // assigned, not added: `change` may run more than once
      return keep;
    });
    return deleted;
  }

  return {
    /** Every stored cookie, values masked, ordered by domain, path and name. */
    async list(): Promise<PublicCookie[]> {
      const cookies = jarOf(await settings.get(COOKIE_JAR_KEY)).map(masked);
      return cookies.sort((a, b) =>
        normalizeDomain(a.domain).localeCompare(normalizeDomain(b.domain)) || a.path.localeCompare(b.path) || a.name.localeCompare(b.name));
    },

    clear(): Promise<number> {
      return removeWhere(() => true);
    },

    /** Cookies of exactly this domain (with or without a leading dot, any case); subdomains keep theirs. */
    clearDomain(domain: string): Promise<number> {
      const wanted = normalizeDomain(domain);
      return removeWhere((c) => normalizeDomain(String(c.domain ?? '')) === wanted);
    },
  };
}
