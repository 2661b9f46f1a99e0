import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { isEnvelope } from './envelope.js';
import type { Keyring } from './keyring.js';
import { sealCredential, openCredential } from './sealed-credentials.js';
import { SECRET_SETTINGS, credentialPlace, isSecretCredentialField, settingPlace } from './secret-fields.js';

/** Which stored secrets to seal again: `plain` ones only (start-up), or every one not sealed with the current key. */
export type ResealScope = 'plain' | 'not-current';

export interface SecretsScan {
  /** Places (`settings:<key>`, `credentials:<id>:<field>`) of values in plain text. */
  plain: string[];
  /** Places sealed with a key of the ring other than the current one. */
  otherKey: string[];
  /** Places sealed with a key the ring lacks, with that key's id. */
  unknownKey: { place: string; keyId: string }[];
  total: number;
}

type Visit = (place: string, stored: unknown) => void;

/** Every stored secret as it is in the store (sealed or not), by place. */
async function visitSecrets(raw: StorageProvider, settings: readonly string[], visit: Visit): Promise<void> {
  for (const key of settings) {
    const stored = await raw.settings.get(key);
    if (stored !== undefined) visit(settingPlace(key), stored);
  }
  for (const record of await raw.credentials.list()) {
    for (const [field, value] of Object.entries(record.config ?? {})) {
      if (isSecretCredentialField(field) && value !== undefined) visit(credentialPlace(record.id, field), value);
    }
  }
}

export async function scanSecrets(raw: StorageProvider, keyring: Keyring, settings = SECRET_SETTINGS): Promise<SecretsScan> {
  const scan: SecretsScan = { plain: [], otherKey: [], unknownKey: [], total: 0 };
  await visitSecrets(raw, settings, (place, stored) => {
    scan.total += 1;
    const unknown = keyring.unknownKeyOf(stored);
    if (unknown) scan.unknownKey.push({ place, keyId: unknown });
    else if (!isEnvelope(stored)) scan.plain.push(place);
    else if (keyring.needsSealing(stored)) scan.otherKey.push(place);
  });
  return scan;
}

/**
 * Seals again, with the current key, every secret `scope` selects; each value changes atomically, so a concurrent
 * writer loses nothing. Resolves to how many values changed.
 */
export async function resealSecrets(raw: StorageProvider, keyring: Keyring, scope: ResealScope, settings = SECRET_SETTINGS): Promise<number> {
  const selected = (stored: unknown) => (scope === 'plain' ? !isEnvelope(stored) : keyring.needsSealing(stored));
  let changed = 0;
  for (const key of settings) {
    const place = settingPlace(key);
    if ((await raw.settings.get(key)) === undefined) continue;
    // Set inside `change`, which a store may call more than once (compare-and-swap retries).
    let resealed = false;
    await raw.settings.update<unknown>(key, (stored) => {
      resealed = stored !== undefined && selected(stored);
      return resealed ? keyring.seal(keyring.open(stored, place), place) : stored;
    });
    if (resealed) changed += 1;
  }
  for (const { id } of await raw.credentials.list()) {
    let fields = 0;
    await raw.credentials.update(id, (record) => {
      fields = Object.entries(record.config ?? {}).filter(([field, value]) => isSecretCredentialField(field) && value !== undefined && selected(value)).length;
      return fields === 0 ? undefined : sealCredential(keyring, openCredential(keyring, record));
    });
    changed += fields;
  }
  return changed;
}
