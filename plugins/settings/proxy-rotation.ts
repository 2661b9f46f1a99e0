import { Errors } from '../../kernel/errors.js';
import type { ProxyChoice, ProxyEntry, ProxyRotation, ProxyUse, StoredProxySettings } from './entries.js';
import { OutboundBlockedError, type OutboundGuard } from '../../kernel/outbound/index.js';
import { HOST_ID, PROXY_PROTOCOLS } from './proxy-input.js';
import { createProxyQuarantine, type ProxyQuarantine } from './proxy-quarantine.js';

/** How the quarantine names a proxy: its server, or `host` for runs without one. */
export const proxyKeyOf = (proxy: { server: string } | null | undefined): string => proxy?.server ?? HOST_ID;

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
 * With `guard`, every proxy is checked against the outbound rule as it is picked (see ProxyRotation).
 */
export function createProxyRotation(
  read: () => Promise<StoredProxySettings>,
  random: () => number = Math.random,
  guard?: OutboundGuard,
  quarantine: ProxyQuarantine = createProxyQuarantine(undefined),
): ProxyRotation {
  let turn = 0;

  /** Why `member` is passed over for `site` now (blocked after a bot wall), or undefined. */
  async function blocked(member: ProxyEntry | undefined, site: string | undefined): Promise<string | undefined> {
    if (site === undefined) return undefined;
    const ms = await quarantine.blockedFor(proxyKeyOf(member), site);
    return ms > 0 ? `${member ? `proxy ${member.server} (${member.id})` : 'the host (no proxy)'} is blocked for ${site} for ${Math.ceil(ms / 60_000)} more min after a bot wall` : undefined;
  }

  /** Why the outbound rule refuses `proxy` now, or undefined when it may be used. */
  async function refusal(proxy: ProxyEntry): Promise<string | undefined> {
    if (!guard) return undefined;
    try {
      await guard.checkUrl(proxy.server, { protocols: PROXY_PROTOCOLS });
      return undefined;
    } catch (error) {
      if (error instanceof OutboundBlockedError) return `proxy ${proxy.server} (${proxy.id}) is refused by the outbound rule: ${error.reason}`;
      throw error;
    }
  }

  async function checked(proxy: ProxyEntry | undefined): Promise<ProxyChoice | null> {
    const refused = proxy && (await refusal(proxy));
    if (refused) throw Errors.INVALID_URL({ reason: refused });
    return choiceOf(proxy);
  }

  const defaultOf = (settings: StoredProxySettings) =>
    checked(settings.proxies.find((proxy) => proxy.id === settings.defaultProxyId));

  const rotation: ProxyRotation = {
    async pick(use?: ProxyUse) {
      const settings = await read();
      const pool = rotationPool(settings);
      if (pool.length === 0) return defaultOf(settings);
      const start = settings.rotationMode === 'random'
        ? Math.min(pool.length - 1, Math.floor(random() * pool.length))
        : turn++ % pool.length;
      // A refused member is passed over for the next one in the pool's order; so is one blocked for the site,
      // unless every allowed member is (a run through a blocked proxy beats no run).
      let firstBlocked: ProxyEntry | undefined | null = null;
      for (let step = 0; step < pool.length; step++) {
        const member = pool[(start + step) % pool.length];
        const refused = member && (await refusal(member));
        if (refused) {
          use?.log?.(`${refused}; trying the next proxy of the rotation`);
          continue;
        }
        const cooling = await blocked(member, use?.site);
        if (!cooling) return choiceOf(member);
        use?.log?.(`${cooling}; trying the next proxy of the rotation`);
        if (firstBlocked === null) firstBlocked = member;
      }
      if (firstBlocked !== null) {
        use?.log?.(`every proxy of the rotation is blocked for ${use?.site}: using the first one anyway`);
        return choiceOf(firstBlocked);
      }
      throw Errors.INVALID_URL({ reason: `every proxy of the rotation is refused by the outbound rule (${pool.length} tried)` });
    },

    async defaultProxy() {
      return defaultOf(await read());
    },

    async forId(id) {
      if (id === HOST_ID) return null;
      const proxy = (await read()).proxies.find((candidate) => candidate.id === id);
      if (!proxy) throw Errors.PROXY_NOT_FOUND({ id });
      return checked(proxy);
    },

    async forTask(task, use) {
      if (task.proxyId) return rotation.forId(task.proxyId);
      return task.rotateProxies ? rotation.pick(use) : rotation.defaultProxy();
    },

    reportRun: (proxy, site, wall) => quarantine.record(proxyKeyOf(proxy), site, wall),

    blockStats: () => quarantine.stats(),
    blockCoolDownMs: quarantine.coolDownMs,
  };
  return rotation;
}
