import type { BrowserStorageState } from '../../kernel/contracts/browser.js';
import type { BrowserStateRecord, BrowserStateSummary } from '../../kernel/contracts/records.js';
import type { DocumentStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import { open, parseEnvelope, seal } from '../sealed-storage/envelope.js';
import { secretKey } from '../sealed-storage/secret-key.js';
import { SecretsError } from '../sealed-storage/secrets-error.js';

/** The `services.sharedKey` purpose the states are sealed with: every instance on the storage derives the same key. */
export const BROWSER_STATE_KEY_PURPOSE = 'browser-states';

/** Named browser states (README "Browser states"): saved sealed, shown only as summaries, opened only for a run. */
export interface BrowserStates {
  list(): Promise<BrowserStateSummary[]>;
  /** The summary; throws BROWSER_STATE_NOT_FOUND (404). */
  get(name: string): Promise<BrowserStateSummary>;
  /** The state itself, for a browser context; throws BROWSER_STATE_NOT_FOUND (404). Never answered or logged. */
  open(name: string): Promise<BrowserStorageState>;
  /** Saves (or replaces) `name`; `source` says where it came from (`session:<id>`, `studio:<id>`, `run:<executionId>`). */
  save(name: string, state: BrowserStorageState, source: string): Promise<BrowserStateSummary>;
  /** True when one was removed. */
  delete(name: string): Promise<boolean>;
}

// The additional data binds a sealed state to its name: a state copied under another name does not open.
const placeOf = (name: string) => `browser-state:${name}`;

/** The sites a state holds something for: local-storage origins and cookie domains (no leading dot), sorted. */
export function originsOf(state: BrowserStorageState): string[] {
  const sites = new Set<string>(state.origins.filter((o) => o.localStorage.length > 0).map((o) => o.origin));
  for (const cookie of state.cookies) sites.add(cookie.domain.replace(/^\./, ''));
  return [...sites].sort();
}

export function summaryOf(record: BrowserStateRecord): BrowserStateSummary {
  const { id, sealed: _sealed, ...rest } = record;
  return { name: id, ...rest };
}

/** The states kept in `store`, sealed with `key` (32 bytes, from `services.sharedKey(BROWSER_STATE_KEY_PURPOSE)`). */
export function createBrowserStates(store: DocumentStore<BrowserStateRecord>, key: Buffer, now: () => Date = () => new Date()): BrowserStates {
  const sealing = secretKey(key);
  const found = async (name: string) => {
    const record = await store.get(name);
    if (!record) throw Errors.BROWSER_STATE_NOT_FOUND({ name });
    return record;
  };
  return {
    list: async () => (await store.list()).map(summaryOf).sort((a, b) => a.name.localeCompare(b.name)),
    get: async (name) => summaryOf(await found(name)),
    async open(name) {
      const record = await found(name);
      const envelope = parseEnvelope(record.sealed);
      if (!envelope || envelope.keyId !== sealing.id) {
        throw new SecretsError(`browser state ${name} was sealed with another session secret: save it again`);
      }
      return JSON.parse(open(sealing, envelope, placeOf(name))) as BrowserStorageState;
    },
    async save(name, state, source) {
      const plain = JSON.stringify({ cookies: state.cookies, origins: state.origins.filter((o) => o.localStorage.length > 0) });
      const at = now().toISOString();
      const sealed = seal(sealing, plain, placeOf(name));
      const fields = { origins: originsOf(state), cookieCount: state.cookies.length, sizeBytes: Buffer.byteLength(plain), source, updatedAt: at, sealed };
      const changed = await store.update(name, (current) => ({ ...current, ...fields }));
      return summaryOf(changed ?? await store.put({ id: name, createdAt: at, ...fields }));
    },
    delete: (name) => store.delete(name),
  };
}
