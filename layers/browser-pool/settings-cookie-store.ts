import type { BrowserCookie } from '../../kernel/contracts/browser.js';
import type { SettingsStore } from '../../kernel/contracts/storage.js';
import type { CookieStore } from './cookie-jar.js';

/** The settings key under which the cookie jar persists. */
export const COOKIE_JAR_KEY = 'browser.cookies';

/**
 * The cookie jar kept in `storage.settings`, so it survives restarts and is shared by every instance. Changes go
 * through `settings.update`, one writer of the key at a time across instances: two runs ending together on
 * different instances both keep their cookies.
 */
export function settingsCookieStore(settings: SettingsStore, key = COOKIE_JAR_KEY): CookieStore {
  return {
    get: async () => (await settings.get<BrowserCookie[]>(key)) ?? [],
    update: async (change) => {
      await settings.update<BrowserCookie[]>(key, (current) => change(current ?? []));
    },
  };
}
