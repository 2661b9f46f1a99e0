import type { SettingsStore } from '../../kernel/contracts/storage.js';
import { maskedPair, rotated, signingSecrets, type SecretPair } from './secrets.js';

/** Settings key of the secret that signs runs' completion webhooks (a secret setting: sealed at rest). */
export const SYSTEM_SECRET_KEY = 'webhooks.systemSecret';

/**
 * The system webhook secret. Generated on first use when nobody asked for one (the callback is signed all the
 * same); `generate` makes a new one and is the only answer that shows it.
 */
export function createSystemSecret(settings: SettingsStore) {
  return {
    async view(): Promise<{ configured: boolean; secret?: string; previousSecretValidUntil?: string }> {
      const pair = await settings.get<SecretPair>(SYSTEM_SECRET_KEY);
      return pair ? { configured: true, ...maskedPair(pair) } : { configured: false };
    },
    async generate(graceMs: number): Promise<{ configured: true; secret: string; previousSecretValidUntil?: string }> {
      const pair = await settings.update<SecretPair>(SYSTEM_SECRET_KEY, (current) => rotated(current, graceMs));
      return { configured: true, ...maskedPair(pair), secret: pair.secret };
    },
    /** The secrets a callback is signed with now (one is made when none exists yet). */
    async signing(): Promise<string[]> {
      const pair = (await settings.get<SecretPair>(SYSTEM_SECRET_KEY))
        ?? (await settings.update<SecretPair>(SYSTEM_SECRET_KEY, (current) => current ?? rotated(undefined, 0)));
      return signingSecrets(pair);
    },
  };
}

export type SystemSecret = ReturnType<typeof createSystemSecret>;
