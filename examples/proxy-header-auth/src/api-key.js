// The system API key (for scripts and the CLI, which do not pass the proxy): kept in the service's settings as
// a salted SHA-256 with a preview of its last 4 characters, never as the key.
import crypto from 'node:crypto';

const SETTING = 'proxy-header.apiKey';

/** @typedef {{ salt: string, hash: string, preview: string }} StoredKey */

/** @param {string} key  @param {string} salt */
const digest = (key, salt) => crypto.createHash('sha256').update(salt).update(key).digest();

/** @param {import('taskloom/contracts').SettingsStore} settings */
export function createApiKeys(settings) {
  return {
    /** @param {string} key */
    async verify(key) {
      const stored = await settings.get(SETTING);
      if (!stored || typeof stored !== 'object') return false;
      const { salt, hash } = /** @type {StoredKey} */ (stored);
      const expected = Buffer.from(hash, 'hex');
      const actual = digest(key, salt);
      return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
    },
    /** @param {string} [key]  @returns {Promise<string>} */
    async set(key) {
      const full = key ?? `tlk_${crypto.randomBytes(32).toString('base64url')}`;
      const salt = crypto.randomBytes(16).toString('hex');
      await settings.set(SETTING, { salt, hash: digest(full, salt).toString('hex'), preview: `****${full.slice(-4)}` });
      return full;
    },
    async status() {
      const stored = /** @type {StoredKey | undefined} */ (await settings.get(SETTING));
      return { configured: stored !== undefined, preview: stored?.preview ?? null };
    },
  };
}
