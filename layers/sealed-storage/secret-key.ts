import crypto from 'node:crypto';

/** An AES-256 key and its id. The id names the key in every envelope it sealed; it reveals nothing of the key. */
export interface SecretKey {
  readonly id: string;
  readonly bytes: Buffer;
}

export const SECRET_KEY_BYTES = 32;

/** What SECRETS_KEY (and a key file) must hold, for error messages. */
export const SECRET_KEY_FORMAT = '32 random bytes as 64 hex characters or base64 (e.g. `openssl rand -base64 32`)';

/** 32 bytes from 64 hex characters or base64 / base64url (padding optional); `undefined` for anything else. */
export function parseSecretKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return undefined;
  const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === SECRET_KEY_BYTES ? bytes : undefined;
}

/** Ids are a hash prefix: the same key has the same id on every instance, so envelopes say which key they need. */
export function secretKey(bytes: Buffer): SecretKey {
  if (bytes.length !== SECRET_KEY_BYTES) throw new RangeError(`a secrets key is ${SECRET_KEY_BYTES} bytes, not ${bytes.length}`);
  const id = crypto.createHash('sha256').update('taskloom secrets key id\0').update(bytes).digest('hex').slice(0, 16);
  return { id, bytes: Buffer.from(bytes) };
}

export function generateSecretKey(): SecretKey {
  return secretKey(crypto.randomBytes(SECRET_KEY_BYTES));
}

/** The text form of a key file, the same format SECRETS_KEY takes, so a key file can become SECRETS_KEY. */
export function formatSecretKey(key: SecretKey): string {
  return `${key.bytes.toString('base64')}\n`;
}
