import { Errors } from '../../kernel/errors.js';
import type { ProxyChoice, ProxyEntry, ProxyRotation, StoredProxySettings } from '../../kernel/contracts/settings.js';
import { HOST_ID } from './proxy-input.js';

function choiceOf(proxy: ProxyEntry | undefined): ProxyChoice | null {
  if (!proxy) return null;
  const choice: ProxyChoice = { server: proxy.server };
  if (proxy.username !== undefined) choice.username = proxy.username;
  if (proxy.password !== undefined) choice.password = proxy.password;
  return choice;
}

/**
 * The rotation pool in stored order: every user proxy except the default, plus the default when
 * `includeDefaultInRotation` (the host, as `undefined`, goes first). A default id that no longer exists is the host.
 */
export function rotationPool(settings: StoredProxySettings): (ProxyEntry | undefined)[] {
  const fallback = settings.proxies.find((proxy) => proxy.id === settings.defaultProxyId);
  if (!settings.includeDefaultInRotation) return settings.proxies.filter((proxy) => proxy !== fallback);
  return fallback ? [...settings.proxies] : [undefined, ...settings.proxies];
}

/**
 * Creates the rotation service over `read` (the current stored settings). `random` returns a number in
 * [0, 1), as Math.random does; tests pass their own. The round-robin position lives in this closure.
 */
export function createProxyRotation(read: () => Promise<StoredProxySettings>, random: () => number = Math.random): ProxyRotation {
  let turn = 0;

  const defaultOf = (settings: StoredProxySettings) =>
    choiceOf(settings.proxies.find((proxy) => proxy.id === settings.defaultProxyId));

  const rotation: ProxyRotation = {
    async pick() {
      const settings = await read();
      const pool = rotationPool(settings);
      if (pool.length === 0) return defaultOf(settings);
      const at = settings.rotationMode === 'random'
        ? Math.min(pool.length - 1, Math.floor(random() * pool.length))
        : turn++ % pool.length;
      return choiceOf(pool[at]);
    },

    async defaultProxy() {
      return defaultOf(await read());
    },

    async forId(id) {
      if (id === HOST_ID) return null;
      const proxy = (await read()).proxies.find((candidate) => candidate.id === id);
      if (!proxy) throw Errors.PROXY_NOT_FOUND({ id });
      return choiceOf(proxy);
    },

    async forTask(task) {
      if (task.proxyId) return rotation.forId(task.proxyId);
      return task.rotateProxies ? rotation.pick() : rotation.defaultProxy();
    },
  };
  return rotation;
}
