import type { SettingsEntries } from './entries.js';
import type { SettingsStore } from '../../kernel/contracts/storage.js';

/** The `storage.settings` keys of this plugin, in one place; their value types are in the settings contract. */
export const SETTINGS_KEYS = {
  proxies: 'settings.proxies',
  aiProviderKeys: 'settings.aiProviderKeys',
  aiModels: 'settings.aiModels',
  selectorFinder: 'settings.selectorFinder',
  theme: 'settings.theme',
} as const satisfies Record<string, keyof SettingsEntries>;

export type SettingsKey = keyof SettingsEntries;

/** `storage.settings` with each key's value type. */
export interface TypedSettings {
  get<K extends SettingsKey>(key: K): Promise<SettingsEntries[K] | undefined>;
  set<K extends SettingsKey>(key: K, value: SettingsEntries[K]): Promise<void>;
  /** Atomic read-modify-write; an error thrown by `change` leaves the value as it was. */
  update<K extends SettingsKey>(key: K, change: (current: SettingsEntries[K] | undefined) => SettingsEntries[K]): Promise<SettingsEntries[K]>;
}

export function typedSettings(settings: SettingsStore): TypedSettings {
  return {
    get: (key) => settings.get(key),
    set: (key, value) => settings.set(key, value),
    update: (key, change) => settings.update(key, change),
  };
}
