import type { SettingsStore } from '../../kernel/contracts/storage.js';
import type { Keyring } from './keyring.js';
import { settingPlace } from './secret-fields.js';

/** `settings` with the values of secret keys sealed on the way in and opened on the way out. */
export function sealedSettings(inner: SettingsStore, keyring: Keyring, isSecret: (key: string) => boolean): SettingsStore {
  const sealed: SettingsStore = {
    async get<V>(key: string): Promise<V | undefined> {
      const stored = await inner.get(key);
      return isSecret(key) && stored !== undefined ? keyring.open<V>(stored, settingPlace(key)) : (stored as V | undefined);
    },
    set<V>(key: string, value: V): Promise<void> {
      return inner.set(key, isSecret(key) && value !== undefined ? keyring.seal(value, settingPlace(key)) : value);
    },
    async update<V>(key: string, change: (current: V | undefined) => V): Promise<V> {
      if (!isSecret(key)) return inner.update(key, change);
      const place = settingPlace(key);
      // Plain text read from an older store leaves sealed: every write seals with the current key.
      const stored = await inner.update<unknown>(key, (current) => {
        const next = change(current === undefined ? undefined : keyring.open<V>(current, place));
        // Left for the store to refuse as it always does (a promise would otherwise be sealed as `{}`).
        if (next === undefined || typeof (next as { then?: unknown } | null)?.then === 'function') return next;
        return keyring.seal(next, place);
      });
      return keyring.open<V>(stored, place);
    },
    delete: (key) => inner.delete(key),
  };
  if (inner.keys) sealed.keys = () => inner.keys!();
  return sealed;
}
