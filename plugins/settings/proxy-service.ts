import { Errors } from '../../kernel/errors.js';
import type { OutboundGuard } from '../../kernel/outbound/index.js';
import type { ProxyEntry, RotationMode, StoredProxySettings } from './entries.js';
import { SETTINGS_KEYS, type TypedSettings } from './keys.js';
import { MAX_PROXIES, type ProxyInput } from './schemas.js';
import {
  HOST_ENTRY, HOST_ID, checkProxyInput, isHostEntry, keepMaskedPassword, maskProxy, newProxyId, type ProxyFields,
} from './proxy-input.js';

const KEY = SETTINGS_KEYS.proxies;

/** The proxy settings object as answered: the host entry first, passwords masked. */
export interface ProxySettingsView {
  proxies: ProxyEntry[];
  defaultProxyId: string;
  includeDefaultInRotation: boolean;
  rotationMode: RotationMode;
}

export interface RotationChange {
  defaultProxyId?: string | null;
  includeDefaultInRotation?: boolean;
  rotationMode?: RotationMode;
}

export function proxyDefaults(): StoredProxySettings {
  return { proxies: [], defaultProxyId: HOST_ID, includeDefaultInRotation: false, rotationMode: 'round-robin' };
}

export function present(settings: StoredProxySettings): ProxySettingsView {
  return {
    proxies: [{ ...HOST_ENTRY }, ...settings.proxies.map(maskProxy)],
    defaultProxyId: settings.defaultProxyId,
    includeDefaultInRotation: settings.includeDefaultInRotation,
    rotationMode: settings.rotationMode,
  };
}

function refuseHost(id: string): void {
  if (id === HOST_ID) throw Errors.VALIDATION_ERROR({ message: 'the host entry is built in: it cannot be changed or deleted' });
}

function indexOf(settings: StoredProxySettings, id: string): number {
  const at = settings.proxies.findIndex((proxy) => proxy.id === id);
  if (at === -1) throw Errors.PROXY_NOT_FOUND({ id });
  return at;
}

function withinLimit(proxies: ProxyEntry[]): ProxyEntry[] {
  if (proxies.length > MAX_PROXIES) {
    throw Errors.VALIDATION_ERROR({ message: `at most ${MAX_PROXIES} proxies can be stored; delete some first` });
  }
  return proxies;
}

/** Checks entries a few at a time (each may resolve a name), in order; the first refusal wins. */
async function checkAll(entries: { input: ProxyInput; index: number }[], guard: OutboundGuard): Promise<ProxyFields[]> {
  const checked: ProxyFields[] = [];
  for (let start = 0; start < entries.length; start += 16) {
    const batch = entries.slice(start, start + 16);
    checked.push(...(await Promise.all(batch.map(({ input, index }) => checkProxyInput(input, guard, `body.proxies.${index}`)))));
  }
  return checked;
}

/** Proxy settings without HTTP. Each change is one atomic `update` of the `settings.proxies` key. */
export function createProxyService(settings: TypedSettings, guard: OutboundGuard) {
  const change = async (apply: (current: StoredProxySettings) => StoredProxySettings) =>
    present(await settings.update(KEY, (current) => apply({ ...proxyDefaults(), ...current })));
  /** The stored settings, passwords in clear (for the rotation service). */
  const read = async (): Promise<StoredProxySettings> => ({ ...proxyDefaults(), ...(await settings.get(KEY)) });

  return {
    read,

    async view(): Promise<ProxySettingsView> {
      return present(await read());
    },

    async add(input: ProxyInput): Promise<ProxySettingsView> {
      const fields = keepMaskedPassword(await checkProxyInput(input, guard), undefined);
      return change((s) => ({ ...s, proxies: withinLimit([...s.proxies, { id: newProxyId(), ...fields }]) }));
    },

    /** All or nothing: every entry is checked before anything is stored. Entries with a stored server update it. */
    async import(inputs: ProxyInput[]): Promise<ProxySettingsView> {
      const entries = inputs.map((input, index) => ({ input, index })).filter(({ input }) => !isHostEntry(input));
      const checked = await checkAll(entries, guard);
      return change((s) => {
        const proxies = [...s.proxies];
        const byServer = new Map<string, number>();
        proxies.forEach((proxy, at) => { if (!byServer.has(proxy.server.toLowerCase())) byServer.set(proxy.server.toLowerCase(), at); });
        for (const fields of checked) {
          const at = byServer.get(fields.server.toLowerCase());
          if (at === undefined) {
            proxies.push({ id: newProxyId(), ...keepMaskedPassword(fields, undefined) });
            byServer.set(fields.server.toLowerCase(), proxies.length - 1);
          } else {
            const stored = proxies[at]!;
            proxies[at] = { ...stored, ...keepMaskedPassword(fields, stored), id: stored.id };
          }
        }
        return { ...s, proxies: withinLimit(proxies) };
      });
    },

    /** Replaces the proxy's fields (a masked password keeps the stored one). */
    async replace(id: string, input: ProxyInput): Promise<ProxySettingsView> {
      refuseHost(id);
      indexOf(await read(), id);
      const fields = await checkProxyInput(input, guard);
      return change((s) => {
        const at = indexOf(s, id);
        const proxies = [...s.proxies];
        proxies[at] = { id, ...keepMaskedPassword(fields, s.proxies[at]) };
        return { ...s, proxies };
      });
    },

    /** Deletes the given proxies, all or none; deleting the default makes the host the default. */
    async remove(ids: string[]): Promise<ProxySettingsView> {
      ids.forEach(refuseHost);
      const gone = new Set(ids);
      return change((s) => {
        for (const id of gone) indexOf(s, id);
        return {
          ...s,
          proxies: s.proxies.filter((proxy) => !gone.has(proxy.id)),
          defaultProxyId: gone.has(s.defaultProxyId) ? HOST_ID : s.defaultProxyId,
        };
      });
    },

    async setRotation(body: RotationChange): Promise<ProxySettingsView> {
      return change((s) => {
        const next = { ...s };
        if (body.defaultProxyId !== undefined) {
          const id = body.defaultProxyId ?? HOST_ID;
          if (id !== HOST_ID) indexOf(s, id);
          next.defaultProxyId = id;
        }
        if (body.includeDefaultInRotation !== undefined) next.includeDefaultInRotation = body.includeDefaultInRotation;
        if (body.rotationMode !== undefined) next.rotationMode = body.rotationMode;
        return next;
      });
    },
  };
}

export type ProxyService = ReturnType<typeof createProxyService>;
