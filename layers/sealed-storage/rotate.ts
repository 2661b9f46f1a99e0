import fs from 'node:fs/promises';
import path from 'node:path';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { renewKeyCheck, storedCheckKeyId, verifyKeyCheck } from './key-check.js';
import { KEY_FILE, NEW_KEY_FILE, OLD_KEY_FILE, readKeyFile, removeKeyFile, writeKeyFile } from './key-files.js';
import { Keyring } from './keyring.js';
import { loadKeyring, type KeyConfig } from './load-keyring.js';
import { resealSecrets, scanSecrets } from './reseal.js';
import { generateSecretKey } from './secret-key.js';
import { SecretsError } from './secrets-error.js';

export interface RotationReport {
  /** The key every secret is now sealed with. */
  keyId: string;
  /** Where that key lives: `SECRETS_KEY` or `DATA_DIR/secrets.key`. */
  source: string;
  /** Secrets sealed again (plain text or another key); `total` secrets in the store. */
  resealed: number;
  total: number;
  /** The key file rotation replaced DATA_DIR/secrets.key (false with SECRETS_KEY: the operator changes it). */
  keyFileReplaced: boolean;
}

/**
 * Seals every secret of `raw` with a new key. With SECRETS_KEY, that key is the new one and the old ones come from
 * SECRETS_KEY_PREVIOUS (and any key file). Without it, a new key is made in DATA_DIR/secrets.key.new, every secret is
 * sealed with it and checked, and only then does it replace secrets.key. Safe to stop at any point: every key that
 * sealed a stored value stays on disk (start-up opens with all key files present), and running it again resumes
 * with the same new key. The service must not be running on the store (new writes would use the old key).
 */
export async function rotateSecrets(raw: StorageProvider, config: KeyConfig): Promise<RotationReport> {
  const checkKeyId = await storedCheckKeyId(raw.settings);
  const loaded = await loadKeyring(config, { create: checkKeyId === undefined });
  if (!loaded) throw new SecretsError(`the store is sealed with key ${checkKeyId}, but SECRETS_KEY is unset and DATA_DIR/secrets.key is missing: restore it first`);
  const files = config.secretsKey ? undefined : await nextKeyFile(config.dataDir);
  // Every key on hand opens; the new one seals.
  const keyring = files ? new Keyring(files.next, [loaded.keyring.current, ...loaded.keyring.others()]) : loaded.keyring;
  await verifyKeyCheck(raw.settings, keyring);
  const before = await scanSecrets(raw, keyring);
  if (before.unknownKey.length > 0) {
    const { place, keyId } = before.unknownKey[0]!;
    throw new SecretsError(`${place} is sealed with key ${keyId}, which is not at hand (${keyring.describe()}): add it to SECRETS_KEY_PREVIOUS; nothing was changed`);
  }
  const resealed = await resealSecrets(raw, keyring, 'not-current');
  // Proof before the old key goes: the new key alone opens every secret.
  const only = new Keyring(keyring.current);
  const after = await scanSecrets(raw, only);
  const left = after.plain.length + after.otherKey.length + after.unknownKey.length;
  if (left > 0) throw new SecretsError(`${left} secret(s) are still not sealed with key ${only.current.key.id} (written meanwhile?): stop every instance and run the rotation again`);
  await renewKeyCheck(raw.settings, only);
  await raw.compact?.(['settings', 'credentials']);
  if (files) await promoteNextKey(config.dataDir);
  return { keyId: only.current.key.id, source: files ? `DATA_DIR/${KEY_FILE}` : only.current.source, resealed, total: after.total, keyFileReplaced: Boolean(files) };
}

/** DATA_DIR/secrets.key.new: the one a stopped rotation left, else a new one (mode 0600, durable). */
async function nextKeyFile(dataDir: string) {
  const file = path.join(dataDir, NEW_KEY_FILE);
  const left = await readKeyFile(file);
  if (!left) await writeKeyFile(file, generateSecretKey());
  const key = left ?? (await readKeyFile(file));
  if (!key) throw new Error(`${file} vanished right after it was written`);
  return { next: { key, source: `DATA_DIR/${NEW_KEY_FILE}` } };
}

/**
 * secrets.key.new becomes secrets.key. The old key is first kept as secrets.key.old, so no moment leaves a sealed
 * value without its key on disk; it is removed once the new key is in place.
 */
async function promoteNextKey(dataDir: string): Promise<void> {
  const current = path.join(dataDir, KEY_FILE);
  const old = await readKeyFile(current);
  if (old) await writeKeyFile(path.join(dataDir, OLD_KEY_FILE), old, { replace: true });
  await fs.rename(path.join(dataDir, NEW_KEY_FILE), current);
  await removeKeyFile(path.join(dataDir, OLD_KEY_FILE)); // also syncs the folder, making the rename durable
}
