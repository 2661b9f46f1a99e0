import type { CredentialRecord } from '../../kernel/contracts/records.js';
import type { CredentialStore } from '../../kernel/contracts/storage.js';
import type { Keyring } from './keyring.js';
import { credentialPlace, isSecretCredentialField } from './secret-fields.js';

/** The record with each secret config field sealed (or opened): `convert` maps one field's value. */
function mapSecrets(record: CredentialRecord, convert: (value: unknown, place: string) => unknown): CredentialRecord {
  // Anything else is the inner store's to refuse.
  if (typeof record !== 'object' || record === null || typeof record.config !== 'object' || record.config === null) return record;
  const config: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(record.config)) {
    config[field] = isSecretCredentialField(field) && value !== undefined ? convert(value, credentialPlace(record.id, field)) : value;
  }
  return { ...record, config };
}

export const sealCredential = (keyring: Keyring, record: CredentialRecord): CredentialRecord =>
  mapSecrets(record, (value, place) => keyring.seal(value, place));

export const openCredential = (keyring: Keyring, record: CredentialRecord): CredentialRecord =>
  mapSecrets(record, (value, place) => keyring.open(value, place));

/** `credentials` with the secret config fields sealed on the way in and opened on the way out. */
export function sealedCredentials(inner: CredentialStore, keyring: Keyring): CredentialStore {
  const opened = (record: CredentialRecord | undefined) => record && openCredential(keyring, record);
  const store: CredentialStore = {
    get: async (id) => opened(await inner.get(id)),
    list: async () => (await inner.list()).map((record) => openCredential(keyring, record)),
    put: async (doc) => openCredential(keyring, await inner.put(sealCredential(keyring, doc))),
    update: async (id, change) => opened(await inner.update(id, (current) => {
      const next = change(openCredential(keyring, current));
      return next && sealCredential(keyring, next);
    })),
    delete: (id) => inner.delete(id),
    count: () => inner.count(),
  };
  if (inner.revision) store.revision = () => inner.revision!();
  return store;
}
