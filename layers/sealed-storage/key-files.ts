import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SECRET_KEY_FORMAT, formatSecretKey, parseSecretKey, secretKey, type SecretKey } from './secret-key.js';
import { SecretsError } from './secrets-error.js';

/** The key of a store without SECRETS_KEY, in DATA_DIR (never in the store itself). */
export const KEY_FILE = 'secrets.key';
/** The next key while `taskloom secrets rotate` re-seals; it opens values already re-sealed if the rotation stopped. */
export const NEW_KEY_FILE = 'secrets.key.new';
/** The key before the last rotation, until that rotation has finished. */
export const OLD_KEY_FILE = 'secrets.key.old';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The key in `file`, or undefined when there is none. Throws SecretsError for a file that holds no key. */
export async function readKeyFile(file: string): Promise<SecretKey | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new SecretsError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}): check its owner and permissions`, { cause: error });
  }
  const bytes = parseSecretKey(text);
  if (!bytes) throw new SecretsError(`${file} does not hold a secrets key (${SECRET_KEY_FORMAT}): restore it from a backup`);
  // A key file made readable to others (a copy, an archive) is tightened again.
  const { mode } = await fs.stat(file);
  if ((mode & 0o077) !== 0) await fs.chmod(file, 0o600).catch(() => undefined);
  return secretKey(bytes);
}

/**
 * Writes `key` to `file` with mode 0600, durably: a temporary file, fsync'd, then moved into place and the folder
 * fsync'd. Without `replace`, an existing file wins and false is returned (two processes creating the key at once
 * end up with the same one).
 */
export async function writeKeyFile(file: string, key: SecretKey, options: { replace?: boolean } = {}): Promise<boolean> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`);
  const handle = await fs.open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(formatSecretKey(key));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (options.replace) {
      await fs.rename(temp, file);
    } else {
      try {
        await fs.link(temp, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      }
    }
    await syncDir(dir);
    return true;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

export async function removeKeyFile(file: string): Promise<void> {
  await fs.rm(file, { force: true });
  await syncDir(path.dirname(file));
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
