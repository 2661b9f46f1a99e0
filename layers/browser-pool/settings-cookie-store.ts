import type { BrowserCookie } from '../../kernel/contracts/browser.js';
import type { SettingsStore } from '../../kernel/contracts/storage.js';
import type { CookieStore } from './cookie-jar.js';

/** The settings key under which the cookie jar persists. */
export const COOKIE_JAR_KEY = 'browser.cookies';

/** The cookie jar kept in `storage.settings`, so it survives restarts and is shared by every instance. */
export function settingsCookieStore(settings: SettingsStore, key = COOKIE_JAR_KEY): CookieStore {
  return {
    get: async () => (await settings.get<BrowserCookie[]>(key)) ?? [],
    set: (cookies) => settings.set(key, cookies),
  };
}
