// An AuthProvider for deployments behind an SSO reverse proxy (oauth2-proxy, say): the proxy signs users in and
// names them in a header; this provider believes that header only from the proxy's own addresses.
import crypto from 'node:crypto';
import { Errors } from 'taskloom/errors';
import { createApiKeys } from './api-key.js';

const EMAIL = /^[^\s@,]+@[^\s@,]+$/;
const API_KEY_MAX_LENGTH = 512;

/**
 * @typedef {object} ProxyHeaderOptions
 * @property {(address: string) => boolean} trusted  whether a peer address is a trusted proxy
 * @property {string} header  the header holding the user's email, e.g. X-Forwarded-Email
 * @property {string} nameHeader  the header holding the user's display name, e.g. X-Forwarded-User
 * @property {import('taskloom/contracts').SettingsStore} settings  where the system API key is kept
 */

/** The one value of a header, or undefined; a header given twice is refused. @param {string | string[] | undefined} value */
function single(value) {
  if (Array.isArray(value)) return value.length === 1 ? value[0] : null;
  return value;
}

/**
 * @param {ProxyHeaderOptions} options
 * @returns {import('taskloom/contracts').AuthProvider}
 */
export function createProxyHeaderAuth({ trusted, header, nameHeader, settings }) {
  const keys = createApiKeys(settings);
  const refuse = (/** @type {string} */ hint) => Errors.UNAUTHORIZED({ hint });
  return {
    // Users are the proxy's: there is no first admin to create and no password to check here.
    async isSetupRequired() { return false; },
    async setup() {
      throw Errors.ALREADY_INITIALIZED(undefined, { details: 'Users sign in through the SSO proxy (AUTH_PROVIDER=proxy-header): there is no setup' });
    },
    async login() {
      throw Errors.INVALID_CREDENTIALS(undefined, { details: 'Users sign in through the SSO proxy (AUTH_PROVIDER=proxy-header), not with a password' });
    },
    async logout() {},
    async resolveSession() { return undefined; },
    verifyApiKey: (key) => keys.verify(key),
    async setApiKey(key) {
      if (key !== undefined && key.length > API_KEY_MAX_LENGTH) throw Errors.API_KEY_TOO_LONG({ length: key.length });
      return keys.set(key);
    },
    apiKeyStatus: () => keys.status(),

    async identify({ headers, remoteAddress }) {
      const raw = headers[header.toLowerCase()];
      if (raw === undefined) return undefined; // not vouched for: the API key (or nothing) decides
      // Anyone can send the header; only the proxy's word counts, and a forged one is refused outright.
      if (!trusted(remoteAddress)) throw refuse(`the ${header} header is accepted only from a trusted proxy (PROXY_HEADER_TRUSTED)`);
      const email = single(raw)?.trim().toLowerCase();
      if (!email || !EMAIL.test(email)) throw refuse(`the ${header} header must hold one email address`);
      const name = single(headers[nameHeader.toLowerCase()])?.trim() || email.split('@')[0];
      // The same email is the same user, across requests and restarts.
      const id = `usr_proxy_${crypto.createHash('sha256').update(email).digest('base64url').slice(0, 22)}`;
      return { id, name, email };
    },
  };
}
