import type { CounterStore } from '../../kernel/contracts/storage.js';

/** How long a proxy stays blocked for a site after a run through it met a bot wall there. */
export const DEFAULT_BLOCK_COOL_DOWN_MS = 30 * 60_000;
/** The sites and proxies whose figures are kept (per process), the least recently used dropped past it. */
const MAX_PAIRS = 2000;

/** Runs and bot walls of one proxy at one site, as this process saw them. */
export interface ProxyBlockStat {
  /** The task URL's host. */
  site: string;
  /** The proxy's server (`http://host:port`), or `host` for runs without a proxy. */
  proxy: string;
  runs: number;
  blocks: number;
  /** blocks / runs, 0..1. */
  blockRate: number;
  /** ISO time the cool-down ends, while the proxy is blocked for the site. */
  blockedUntil?: string;
}

/**
 * Which proxies are blocked for which site (a run through them met a bot wall there), for a cool-down: kept in the
 * storage's shared counters when it has them (every instance skips the proxy), else in this process. The block
 * figures per site and proxy (runs, walls) are this process's, for the settings view and the metrics.
 */
export function createProxyQuarantine(counters: CounterStore | undefined, coolDownMs = DEFAULT_BLOCK_COOL_DOWN_MS) {
  const local = new Map<string, number>();
  const stats = new Map<string, { site: string; proxy: string; runs: number; blocks: number; untilMs?: number }>();
  const keyOf = (proxy: string, site: string) => `proxy-block|${proxy}|${site.toLowerCase()}`;

  /** Milliseconds the proxy stays blocked for the site; 0 when it is not. */
  async function blockedFor(proxy: string, site: string): Promise<number> {
    const key = keyOf(proxy, site);
    if (counters) {
      const state = await counters.add(key, 0, { windowMs: coolDownMs });
      return state.count > 0 ? state.resetInMs : 0;
    }
    const until = local.get(key) ?? 0;
    if (until <= Date.now()) local.delete(key);
    return Math.max(0, until - Date.now());
  }

  return {
    coolDownMs,
    blockedFor,

    /** A run through `proxy` at `site` ended; `blocked`: it met a bot wall, and the proxy is blocked there now. */
    async record(proxy: string, site: string, blocked: boolean): Promise<void> {
      const id = `${proxy} ${site}`;
      const stat = stats.get(id) ?? { site, proxy, runs: 0, blocks: 0 };
      stats.delete(id); // re-inserted last: the map's order is the use order
      stats.set(id, { ...stat, runs: stat.runs + 1, blocks: stat.blocks + (blocked ? 1 : 0), ...(blocked ? { untilMs: Date.now() + coolDownMs } : {}) });
      if (stats.size > MAX_PAIRS) stats.delete(stats.keys().next().value!);
      if (!blocked) return;
      const key = keyOf(proxy, site);
      if (counters) {
        await counters.reset(key); // a new window: the cool-down runs from this wall
        await counters.add(key, 1, { windowMs: coolDownMs });
      } else {
        local.set(key, Date.now() + coolDownMs);
      }
    },

    /** The figures per site and proxy, most walls first. */
    stats(): ProxyBlockStat[] {
      const now = Date.now();
      return [...stats.values()].map(({ untilMs, ...stat }) => ({
        ...stat, blockRate: stat.runs === 0 ? 0 : stat.blocks / stat.runs,
        ...(untilMs !== undefined && untilMs > now ? { blockedUntil: new Date(untilMs).toISOString() } : {}),
      })).sort((a, b) => b.blocks - a.blocks || b.runs - a.runs || a.site.localeCompare(b.site));
    },
  };
}

export type ProxyQuarantine = ReturnType<typeof createProxyQuarantine>;
