import type { SettingsStore } from '../../kernel/contracts/storage.js';
import { isEnvelope, parseEnvelope } from './envelope.js';
import { MISSING_KEY_HINT, type Keyring } from './keyring.js';
import { KEY_CHECK_SETTING, settingPlace } from './secret-fields.js';
import { SecretsError } from './secrets-error.js';

const CHECK_TEXT = 'taskloom secrets key check';
const PLACE = settingPlace(KEY_CHECK_SETTING);

/** The id of the key the stored check value was sealed with, or undefined when the store has none yet. */
export async function storedCheckKeyId(settings: SettingsStore): Promise<string | undefined> {
  const stored = await settings.get(KEY_CHECK_SETTING);
  if (stored === undefined) return undefined;
  if (!isEnvelope(stored)) throw new SecretsError(`the store's ${KEY_CHECK_SETTING} setting is damaged: it is not a sealed value`);
  return parseEnvelope(stored)!.keyId;
}

/**
 * Proves that this process has the key the store was sealed with, before anything reads a secret: a wrong key
 * stops the start with this message instead of failing later on each secret. A store without a check value gets
 * one sealed with the current key (atomically: of instances starting at once, the first one's key is the store's).
 */
export async function verifyKeyCheck(settings: SettingsStore, keyring: Keyring): Promise<void> {
  // Written only when missing: a start is not a write.
  const stored = (await settings.get(KEY_CHECK_SETTING)) ??
    (await settings.update<unknown>(KEY_CHECK_SETTING, (current) => current ?? keyring.seal(CHECK_TEXT, PLACE)));
  const keyId = isEnvelope(stored) ? parseEnvelope(stored)!.keyId : undefined;
  if (keyId !== undefined && !keyring.has(keyId)) {
    throw new SecretsError(`the secrets of this store are sealed with key ${keyId}, but this instance has ${keyring.describe()}: ${MISSING_KEY_HINT}`);
  }
  let opened: unknown;
  try {
    opened = keyring.open(stored, PLACE);
  } catch (error) {
    throw new SecretsError(`the store's ${KEY_CHECK_SETTING} setting does not open (${(error as Error).message}): ${MISSING_KEY_HINT}`, { cause: error });
  }
  if (opened !== CHECK_TEXT) throw new SecretsError(`the store's ${KEY_CHECK_SETTING} setting is damaged: restore the store, or remove that setting to accept the current key`);
}

/** Seals the check value with the current key: the last step of a rotation, once every secret is sealed with it. */
export async function renewKeyCheck(settings: SettingsStore, keyring: Keyring): Promise<void> {
  await settings.set(KEY_CHECK_SETTING, keyring.seal(CHECK_TEXT, PLACE));
}
