import crypto from 'node:crypto';
import type { OutputCredentialConfig, OutputLocation, OutputTarget } from '../../kernel/contracts/output.js';
import type { CredentialRecord } from '../../kernel/contracts/records.js';
import { Errors } from '../../kernel/errors.js';
import type { KernelServices } from '../../kernel/services.js';
import { MASK, type CredentialInput, type CredentialUpdate, type PublicCredential } from './schemas.js';

const newId = () => `cred_${crypto.randomBytes(12).toString('base64url')}`;
const now = () => new Date().toISOString();

/** The credential as every response shows it: the token replaced by the mask. */
export function masked(record: CredentialRecord): PublicCredential {
  const { id, name, provider, createdAt, updatedAt } = record;
  return { id, name, provider, config: { baseUrl: String(record.config.baseUrl ?? ''), token: MASK }, createdAt, updatedAt };
}

function originOf(baseUrl: unknown): string | undefined {
  try {
    return new URL(String(baseUrl)).origin;
  } catch {
    return undefined;
  }
}

export type CredentialService = ReturnType<typeof createCredentialService>;

/** Credential logic without HTTP: validation, masking, and calls to the credential's output target. */
export function createCredentialService(services: KernelServices) {
  const store = services.storage.credentials;
  const { guard } = services.outbound;
  const log = services.logger.child({ plugin: 'credentials' });
  const targetFor = (providerId: string) => services.output.get(providerId);

  const found = (record: CredentialRecord | undefined, id: string): CredentialRecord => {
    if (!record) throw Errors.CREDENTIAL_NOT_FOUND({ id });
    return record;
  };

  function checkProvider(providerId: string): void {
    const known = services.output.ids();
    if (!known.includes(providerId)) {
      throw Errors.VALIDATION_ERROR({ message: `body.provider must be one of ${known.join(', ') || '(none installed)'}` });
    }
  }

  /** The URL as stored (no trailing slash), after the outbound rule; INVALID_BASE_URL with the reason otherwise. */
  async function checkBaseUrl(raw: string): Promise<string> {
    const url = await guard.check(raw.trim(), { errorAs: Errors.INVALID_BASE_URL });
    if (url.username !== '' || url.password !== '') {
      throw Errors.INVALID_BASE_URL({ reason: 'baseUrl must not carry a user name or password: put the token in config.token' });
    }
    if (url.search !== '' || url.hash !== '') {
      throw Errors.INVALID_BASE_URL({ reason: 'baseUrl must not carry a query or a fragment: give the address of the product only' });
    }
    return url.href.replace(/\/+$/, '');
  }

  /**
   * A kept token must not follow the credential to another origin: whoever may edit credentials could
   * otherwise point one at their own server and receive the token they can never read.
   */
  function assertTokenStays(current: CredentialRecord, baseUrl: string, newToken: string | undefined): void {
    if (newToken === undefined && originOf(current.config.baseUrl) !== originOf(baseUrl)) {
      throw Errors.VALIDATION_ERROR({ message: 'body.config.token must be sent again when baseUrl moves to another origin' });
    }
  }

  /** The credential's target and config, with the stored base URL checked again (the rule may have changed). */
  async function open(id: string): Promise<{ target: OutputTarget; config: OutputCredentialConfig }> {
    const record = found(await store.get(id), id);
    const baseUrl = await checkBaseUrl(String(record.config.baseUrl ?? ''));
    const target = await targetFor(record.provider);
    return { target, config: { baseUrl, token: String(record.config.token ?? '') } };
  }

  return {
    async list(): Promise<PublicCredential[]> {
      return (await store.list()).map(masked);
    },

    async create(input: CredentialInput): Promise<PublicCredential> {
      checkProvider(input.provider);
      const baseUrl = await checkBaseUrl(input.config.baseUrl);
      if (input.config.token === MASK) {
        throw Errors.VALIDATION_ERROR({ message: 'body.config.token is the mask: send the real token' });
      }
      const at = now();
      const record: CredentialRecord = {
        id: newId(), name: input.name.trim(), provider: input.provider,
        config: { baseUrl, token: input.config.token }, createdAt: at, updatedAt: at,
      };
      await store.put(record);
      log.info({ credentialId: record.id, provider: record.provider }, 'credential created');
      return masked(record);
    },

    async update(id: string, patch: CredentialUpdate): Promise<PublicCredential> {
      const current = found(await store.get(id), id);
      if (patch.provider !== undefined) checkProvider(patch.provider);
      const baseUrl = patch.config?.baseUrl === undefined
        ? String(current.config.baseUrl ?? '')
        : await checkBaseUrl(patch.config.baseUrl);
      const token = patch.config?.token === MASK ? undefined : patch.config?.token;
      assertTokenStays(current, baseUrl, token);
      let moved = false;
      const saved = await store.update(id, (latest) => {
        // Someone moved it meanwhile: the check above no longer holds for the stored URL.
        if (originOf(latest.config.baseUrl) !== originOf(current.config.baseUrl) && token === undefined) {
          moved = true;
          return undefined;
        }
        return {
          ...latest,
          name: patch.name?.trim() ?? latest.name,
          provider: patch.provider ?? latest.provider,
          config: { ...latest.config, baseUrl, token: token ?? latest.config.token },
          updatedAt: now(),
        };
      });
      if (moved) throw Errors.VALIDATION_ERROR({ message: 'the credential changed while it was being saved: load it and try again' });
      log.info({ credentialId: id, tokenChanged: token !== undefined }, 'credential updated');
      return masked(found(saved, id));
    },

    async remove(id: string): Promise<void> {
      if (!(await store.delete(id))) throw Errors.CREDENTIAL_NOT_FOUND({ id });
      log.info({ credentialId: id }, 'credential deleted');
    },

    async databases(id: string): Promise<OutputLocation[]> {
      const { target, config } = await open(id);
      return target.listDatabases(config);
    },

    async tables(id: string, databaseId: number): Promise<OutputLocation[]> {
      const { target, config } = await open(id);
      return target.listTables(config, databaseId);
    },

    async push(id: string, tableId: number, rows: Record<string, unknown>[]): Promise<number> {
      const { target, config } = await open(id);
      return target.push(config, tableId, rows);
    },
  };
}
