import crypto from 'node:crypto';
import type { ApiKeyGrant, NewApiKey } from '../../../kernel/contracts/auth.js';
import type { ApiKey } from '../../../kernel/contracts/records.js';
import type { StorageProvider } from '../../../kernel/contracts/storage.js';
import { Errors } from '../../../kernel/errors.js';
import { matchesApiKey, storeApiKey, type StoredApiKey } from './api-key.js';

// Every named key in one setting (a team holds tens, not thousands), changed atomically; the last use apart, so
// recording a use never races a revocation into undoing it.
const KEYS_SETTING = 'auth.namedKeys';
const USED_SETTING = 'auth.namedKeysUsed';
const USE_WRITE_INTERVAL_MS = 60_000;

type StoredNamedKey = Omit<ApiKey, 'lastUsedAt' | 'preview'> & { secret: StoredApiKey };

/** `tlkn_<id>_<secret>`: the id finds the record, the secret is compared with its hash. */
const KEY_PATTERN = /^tlkn_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface NamedKeys {
  create(input: NewApiKey): Promise<{ key: string; apiKey: ApiKey }>;
  list(): Promise<ApiKey[]>;
  revoke(id: string): Promise<ApiKey>;
  resolve(key: string): Promise<ApiKeyGrant | undefined>;
}

export function createNamedKeys(storage: StorageProvider, now = () => Date.now()): NamedKeys {
  // Per instance: when this instance last wrote each key's use (other instances write theirs, at most as often).
  const lastWritten = new Map<string, number>();
  const all = async () => (await storage.settings.get<StoredNamedKey[]>(KEYS_SETTING)) ?? [];
  const used = async () => (await storage.settings.get<Record<string, string>>(USED_SETTING)) ?? {};
  const listed = (stored: StoredNamedKey, lastUsedAt: string | undefined): ApiKey => {
    const { secret, ...rest } = stored;
    return { ...rest, lastUsedAt: lastUsedAt ?? null, preview: secret.preview };
  };

  async function recordUse(id: string): Promise<void> {
    const at = now();
    if (at - (lastWritten.get(id) ?? 0) < USE_WRITE_INTERVAL_MS) return;
    lastWritten.set(id, at);
    await storage.settings.update<Record<string, string>>(USED_SETTING, (current) => ({ ...current, [id]: new Date(at).toISOString() }));
  }

  return {
    async create({ name, scopes, taskIds, expiresAt }) {
      if (expiresAt && !(Date.parse(expiresAt) > now())) {
        throw Errors.VALIDATION_ERROR({ message: `expiresAt ${expiresAt} is not a date in the future` });
      }
      const id = crypto.randomBytes(8).toString('hex');
      const key = `tlkn_${id}_${crypto.randomBytes(32).toString('base64url')}`;
      const stored: StoredNamedKey = {
        id, name: name.trim(), scopes: [...new Set(scopes)], taskIds: taskIds?.length ? [...new Set(taskIds)] : null,
        expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null, createdAt: new Date(now()).toISOString(),
        revokedAt: null, secret: storeApiKey(key),
      };
      await storage.settings.update<StoredNamedKey[]>(KEYS_SETTING, (current) => [...(current ?? []), stored]);
      return { key, apiKey: listed(stored, undefined) };
    },

    async list() {
      const [keys, uses] = await Promise.all([all(), used()]);
      return keys.map((stored) => listed(stored, uses[stored.id])).reverse();
    },

    async revoke(id) {
      let revoked: StoredNamedKey | undefined;
      await storage.settings.update<StoredNamedKey[]>(KEYS_SETTING, (current) => (current ?? []).map((stored) => {
        if (stored.id !== id) return stored;
        revoked = { ...stored, revokedAt: stored.revokedAt ?? new Date(now()).toISOString() };
        return revoked;
      }));
      if (!revoked) throw Errors.API_KEY_NOT_FOUND({ id });
      return listed(revoked, (await used())[id]);
    },

    async resolve(key) {
      const match = KEY_PATTERN.exec(key);
      if (!match) return undefined;
      const stored = (await all()).find((candidate) => candidate.id === match[1]);
      if (!stored || !matchesApiKey(key, stored.secret)) return undefined;
      if (stored.revokedAt) throw Errors.UNAUTHORIZED({ hint: `the API key "${stored.name}" was revoked at ${stored.revokedAt}` });
      if (stored.expiresAt && Date.parse(stored.expiresAt) <= now()) {
        throw Errors.UNAUTHORIZED({ hint: `the API key "${stored.name}" expired at ${stored.expiresAt}` });
      }
      await recordUse(stored.id).catch(() => undefined);
      return { id: stored.id, name: stored.name, scopes: stored.scopes, taskIds: stored.taskIds };
    },
  };
}
