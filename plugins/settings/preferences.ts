import type { SelectorFinder, Theme } from './entries.js';
import { SETTINGS_KEYS, type TypedSettings } from './keys.js';
import { THEMES } from './schemas.js';

export const DEFAULT_THEME: Theme = 'dark';
export const DEFAULT_SELECTOR_FINDER: SelectorFinder = 'highlight';

export const isTheme = (value: unknown): value is Theme => (THEMES as readonly unknown[]).includes(value);

/** Dashboard preferences without HTTP: the selector finder and the theme. */
export function createPreferenceService(settings: TypedSettings) {
  return {
    async selectorFinder(): Promise<SelectorFinder> {
      return (await settings.get(SETTINGS_KEYS.selectorFinder)) ?? DEFAULT_SELECTOR_FINDER;
    },

    async setSelectorFinder(value: SelectorFinder): Promise<SelectorFinder> {
      await settings.set(SETTINGS_KEYS.selectorFinder, value);
      return value;
    },

    /**
     * The stored theme; when none is stored, the first valid `fromCookies` value, else the default. Stores nothing:
     * reading is safe to repeat from any page, and only `setTheme` (POST) writes.
     */
    async theme(fromCookies: (string | undefined)[]): Promise<Theme> {
      return (await settings.get(SETTINGS_KEYS.theme)) ?? fromCookies.find(isTheme) ?? DEFAULT_THEME;
    },

    /** Saves `value`, or the default when it is not one of the themes. */
    async setTheme(value: string): Promise<Theme> {
      const theme = isTheme(value) ? value : DEFAULT_THEME;
      await settings.set(SETTINGS_KEYS.theme, theme);
      return theme;
    },
  };
}
