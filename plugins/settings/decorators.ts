import type { ProxyRotation } from './entries.js';

export type { ProxyBlockStat } from './proxy-quarantine.js';
export type {
  AiModelSettings, AiSlot, ProviderDEndpoint, ProxyChoice, ProxyEntry, ProxyRotation, ProxyUse, RotationMode, SettingsEntries,
  StoredAiProviderKeys, StoredProxySettings,
} from './entries.js';

// The decorator the settings plugin adds for every scope (fastify-plugin, name 'taskloom-settings'), and the
// settings it keeps in `storage.settings` (SettingsEntries: key -> value), typed for the plugins that read them.
declare module 'fastify' {
  interface FastifyInstance {
    /** Picks the proxy of a run; see entries.ts. */
    proxyRotation: ProxyRotation;
  }
}
