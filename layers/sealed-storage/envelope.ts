import crypto from 'node:crypto';
import type { SecretKey } from './secret-key.js';
import { SecretsError } from './secrets-error.js';

/**
 * A sealed value as stored: `enc:v1:<key id>:<iv>:<ciphertext and tag>`, AES-256-GCM, base64url parts. A string,
 * so it fits a settings value or a record field in every store. The additional data binds it to where it is
 * stored (a settings key, a credential field), so a sealed value copied elsewhere does not open.
 */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PATTERN = /^enc:v1:([0-9a-f]{16}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22,})$/;

export interface Envelope {
  keyId: string;
  iv: Buffer;
  /** Ciphertext followed by the 16-byte tag. */
  sealed: Buffer;
}

export function isEnvelope(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX) && PATTERN.test(value);
}

export function parseEnvelope(value: string): Envelope | undefined {
  const match = PATTERN.exec(value);
  if (!match) return undefined;
  return { keyId: match[1]!, iv: Buffer.from(match[2]!, 'base64url'), sealed: Buffer.from(match[3]!, 'base64url') };
}

export function seal(key: SecretKey, plaintext: string, aad: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key.bytes, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${key.id}:${iv.toString('base64url')}:${body.toString('base64url')}`;
}

/** Throws SecretsError when the key is not the one that sealed it, or the value or its place was changed. */
export function open(key: SecretKey, envelope: Envelope, aad: string): string {
  if (envelope.sealed.length < TAG_BYTES) throw new SecretsError(`a sealed value of ${aad} is truncated`);
  const body = envelope.sealed.subarray(0, envelope.sealed.length - TAG_BYTES);
  const decipher = crypto.createDecipheriv('aes-256-gcm', key.bytes, envelope.iv);
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(envelope.sealed.subarray(envelope.sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new SecretsError(`the sealed value of ${aad} does not open with key ${key.id}: it was changed or moved`, { cause: error });
  }
}
