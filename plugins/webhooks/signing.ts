import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export const newSigningSecret = (): string => `whsec_${crypto.randomBytes(32).toString('base64')}`;

/** A new `webhook-id`: the same on every attempt of one delivery, so receivers can deduplicate. */
export const newMessageId = (): string => `msg_${crypto.randomBytes(16).toString('base64url')}`;

/**
 * The Standard Webhooks headers of one attempt (`webhook-id`, `webhook-timestamp` now, `webhook-signature`).
 * During a rotation's grace period `secrets` holds the new and the old secret: the signature header then lists
 * one signature per secret, space-separated, and a receiver holding either verifies.
 */
export function signatureHeaders(id: string, payload: string, secrets: readonly string[], now = new Date()): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, now, payload));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
