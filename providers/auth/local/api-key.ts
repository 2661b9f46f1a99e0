import crypto from 'node:crypto';

/** How the system API key is stored: a salted SHA-256, never the key. */
export interface StoredApiKey {
  salt: string;
  hash: string;
  preview: string;
  createdAt: string;
}

export const API_KEY_MAX_LENGTH = 512;

export function generateApiKey(): string {
  return `tlk_${crypto.randomBytes(32).toString('base64url')}`;
}

function digest(key: string, salt: string): Buffer {
  return crypto.createHash('sha256').update(salt).update(key).digest();
}

export function storeApiKey(key: string): StoredApiKey {
  const salt = crypto.randomBytes(16).toString('hex');
  return {
    salt,
    hash: digest(key, salt).toString('hex'),
    preview: `****${key.slice(-4)}`,
    createdAt: new Date().toISOString(),
  };
}

/** Constant-time comparison of a presented key with the stored one. */
export function matchesApiKey(key: string, stored: StoredApiKey): boolean {
  const expected = Buffer.from(stored.hash, 'hex');
  const actual = digest(key, stored.salt);
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}
