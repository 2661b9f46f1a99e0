import path from 'node:path';
import { KEY_FILE, NEW_KEY_FILE, OLD_KEY_FILE, readKeyFile, writeKeyFile } from './key-files.js';
import { Keyring, type SourcedKey } from './keyring.js';
import { generateSecretKey, secretKey } from './secret-key.js';

/** Where the keys come from: SECRETS_KEY and SECRETS_KEY_PREVIOUS (see settings.ts), else the key files of DATA_DIR. */
export interface KeyConfig {
  dataDir: string;
  /** SECRETS_KEY: seals secrets at rest; undefined: DATA_DIR/secrets.key, generated once. */
  secretsKey?: Buffer;
  /** SECRETS_KEY_PREVIOUS: keys that still open secrets sealed before a rotation. */
  previousSecretsKeys: Buffer[];
}

export interface LoadedKeyring {
  keyring: Keyring;
  /** The key file this call created (none existed); removed again if the store turns out to need another key. */
  createdFile?: string;
}

/** Every key file present in DATA_DIR, current first. */
async function keyFiles(dataDir: string): Promise<{ current?: SourcedKey; others: SourcedKey[] }> {
  const read = async (name: string): Promise<SourcedKey | undefined> => {
    const key = await readKeyFile(path.join(dataDir, name));
    return key && { key, source: `DATA_DIR/${name}` };
  };
  const [current, next, old] = await Promise.all([read(KEY_FILE), read(NEW_KEY_FILE), read(OLD_KEY_FILE)]);
  return { current, others: [next, old].filter((k): k is SourcedKey => k !== undefined) };
}

/**
 * The keys of this process. With SECRETS_KEY: it seals, and SECRETS_KEY_PREVIOUS only opens; key files are ignored
 * (a wrong SECRETS_KEY must not pass thanks to a forgotten file). Without it: DATA_DIR/secrets.key seals, and the
 * files of a rotation that stopped half way only open; `create` makes the key file (mode 0600) when there is none,
 * otherwise the answer is `undefined`.
 */
export async function loadKeyring(config: KeyConfig, options: { create: boolean }): Promise<LoadedKeyring | undefined> {
  if (config.secretsKey) {
    const previous = config.previousSecretsKeys.map((bytes, i) => ({ key: secretKey(bytes), source: `SECRETS_KEY_PREVIOUS #${i + 1}` }));
    return { keyring: new Keyring({ key: secretKey(config.secretsKey), source: 'SECRETS_KEY' }, previous) };
  }
  const files = await keyFiles(config.dataDir);
  if (files.current) return { keyring: new Keyring(files.current, files.others) };
  if (!options.create) return undefined;
  const file = path.join(config.dataDir, KEY_FILE);
  const created = await writeKeyFile(file, generateSecretKey());
  // Another process made it first: use theirs.
  const key = await readKeyFile(file);
  if (!key) throw new Error(`${file} vanished right after it was written`);
  return { keyring: new Keyring({ key, source: `DATA_DIR/${KEY_FILE}` }, files.others), createdFile: created ? file : undefined };
}
