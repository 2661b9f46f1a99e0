import fs from 'node:fs/promises';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { storedCheckKeyId, verifyKeyCheck } from './key-check.js';
import type { Keyring } from './keyring.js';
import { loadKeyring, type KeyConfig } from './load-keyring.js';
import { resealSecrets, scanSecrets } from './reseal.js';
import { isSecretSetting } from './secret-fields.js';
import { sealedCredentials } from './sealed-credentials.js';
import { sealedSettings } from './sealed-settings.js';
import { SecretsError } from './secrets-error.js';

/**
 * `raw` with its secrets sealed at rest: the only view of the storage the rest of the service gets. Secret settings
 * and credential fields are sealed on write and opened on read; everything else passes through untouched.
 */
export function sealStorage(raw: StorageProvider, keyring: Keyring, isSecret: (key: string) => boolean = isSecretSetting): StorageProvider {
  const settings = sealedSettings(raw.settings, keyring, isSecret);
  const credentials = sealedCredentials(raw.credentials, keyring);
  // Delegating, not copying: a provider's getters (kind) and methods keep their `this`.
  return new Proxy(raw, {
    get(target, property, receiver) {
      if (property === 'settings') return settings;
      if (property === 'credentials') return credentials;
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Start-up: finds the key (SECRETS_KEY, else DATA_DIR/secrets.key, made once), proves it is the store's, seals any
 * secret an older version left in plain text (and has the store drop the plain copies), then wraps the storage.
 * On any failure `raw` is closed and a SecretsError says what to do.
 */
export async function openSecretStorage(raw: StorageProvider, options: { config: KeyConfig; logger: Logger }): Promise<StorageProvider> {
  const { logger } = options;
  let createdFile: string | undefined;
  try {
    const checkKeyId = await storedCheckKeyId(raw.settings);
    const loaded = await loadKeyring(options.config, { create: checkKeyId === undefined });
    if (!loaded) {
      throw new SecretsError(`the secrets of this store are sealed with key ${checkKeyId}, but SECRETS_KEY is unset and DATA_DIR/secrets.key is missing: ` +
        'restore DATA_DIR/secrets.key, or set SECRETS_KEY to that key (every instance sharing a database needs the same SECRETS_KEY)');
    }
    const { keyring } = loaded;
    createdFile = loaded.createdFile;
    if (createdFile) logger.info({ file: createdFile, keyId: keyring.current.key.id }, 'created the secrets key file (mode 0600): back it up with the data');
    await verifyKeyCheck(raw.settings, keyring);
    createdFile = undefined;
    const scan = await scanSecrets(raw, keyring);
    if (scan.unknownKey.length > 0) {
      const { place, keyId } = scan.unknownKey[0]!;
      throw new SecretsError(`${scan.unknownKey.length} stored secret(s), e.g. ${place}, are sealed with key ${keyId}, which this instance does not have ` +
        `(it has ${keyring.describe()}): set SECRETS_KEY_PREVIOUS to that key, then run \`taskloom secrets rotate\``);
    }
    if (scan.plain.length > 0) {
      const sealed = await resealSecrets(raw, keyring, 'plain');
      await raw.compact?.(['settings', 'credentials']);
      logger.info({ sealed, keyId: keyring.current.key.id }, 'sealed secrets an earlier version stored in plain text');
    }
    if (scan.otherKey.length > 0) {
      logger.warn({ secrets: scan.otherKey.length }, 'some secrets are sealed with an older key: run `taskloom secrets rotate` to seal them with the current one');
    }
    return sealStorage(raw, keyring);
  } catch (error) {
    // A key file made for a store that turned out to have another key would only mislead the next start.
    if (createdFile) await fs.rm(createdFile, { force: true }).catch(() => undefined);
    await raw.close().catch(() => undefined);
    throw error;
  }
}
