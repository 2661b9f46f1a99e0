import { AUTH_CONTRACT_VERSION, type AuthProvider } from '../../../kernel/contracts/auth.js';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import type { UserRecord } from '../../../kernel/contracts/records.js';
import type { StorageProvider } from '../../../kernel/contracts/storage.js';
import { Errors } from '../../../kernel/errors.js';
import { createAccountAdmin, newUserId } from './accounts.js';
import { API_KEY_MAX_LENGTH, generateApiKey, matchesApiKey, storeApiKey, type StoredApiKey } from './api-key.js';
import { createNamedKeys } from './named-keys.js';
import { dummyHash, hashPassword, verifyPassword } from './password.js';
import { openSession, sessionId, toPublic } from './sessions.js';

const API_KEY_SETTING = 'auth.apiKey';

/**
 * Accounts (the first admin and the team), sessions, the system API key and the named ones, kept in the configured
 * storage (so every instance shares them).
 */
export function createLocalAuth(storage: StorageProvider): AuthProvider {
  // Setup happens once; after that the answer never changes, so it is remembered.
  let initialized = false;
  const namedKeys = createNamedKeys(storage);

  return {
    async isSetupRequired() {
      if (!initialized) initialized = (await storage.users.count()) > 0;
      return !initialized;
    },

    async setup({ name, email, password }) {
      // Refused before the hash (scrypt, 32 MiB): anyone may call setup, and it is done once. insertFirst below
      // still settles two first setups racing.
      if (initialized || (await storage.users.count()) > 0) {
        initialized = true;
        throw Errors.ALREADY_INITIALIZED();
      }
      const user: UserRecord = {
        id: newUserId(),
        name: name.trim(),
        email: email.trim().toLowerCase(),
        passwordHash: await hashPassword(password),
        createdAt: new Date().toISOString(),
      };
      if (!(await storage.users.insertFirst(user))) throw Errors.ALREADY_INITIALIZED();
      initialized = true;
      return toPublic(user);
    },

    async login(email, password) {
      const dummy = dummyHash();
      const user = await storage.users.findByEmail(email.trim());
      // Awaited whoever logs in: the process's first login (which makes it) takes as long for an unknown address.
      const stand = await dummy;
      const ok = await verifyPassword(password, user?.passwordHash ?? stand);
      if (!user || !ok) throw Errors.INVALID_CREDENTIALS();
      return openSession(storage, user);
    },

    async logout(token) {
      await storage.sessions.delete(sessionId(token));
    },

    async resolveSession(token) {
      const session = await storage.sessions.get(sessionId(token));
      if (!session || session.expiresAtMs < Date.now()) return undefined;
      const user = await storage.users.get(session.userId);
      return user ? toPublic(user) : undefined;
    },

    async verifyApiKey(key) {
      const stored = await storage.settings.get<StoredApiKey>(API_KEY_SETTING);
      return stored !== undefined && matchesApiKey(key, stored);
    },

    async setApiKey(key) {
      if (key !== undefined && key.length > API_KEY_MAX_LENGTH) throw Errors.API_KEY_TOO_LONG({ length: key.length });
      const full = key ?? generateApiKey();
      await storage.settings.set(API_KEY_SETTING, storeApiKey(full));
      return full;
    },

    async apiKeyStatus() {
      const stored = await storage.settings.get<StoredApiKey>(API_KEY_SETTING);
      return { configured: stored !== undefined, preview: stored?.preview ?? null };
    },

    createApiKey: namedKeys.create,
    listApiKeys: namedKeys.list,
    revokeApiKey: namedKeys.revoke,
    resolveApiKey: namedKeys.resolve,

    accounts: createAccountAdmin(storage),
  };
}

export const localAuth = defineProvider({
  capability: 'auth',
  id: 'local',
  contractVersion: AUTH_CONTRACT_VERSION,
  async create(context) {
    if (!context.storage) throw new Error('the local auth provider needs storage');
    return createLocalAuth(context.storage);
  },
});
