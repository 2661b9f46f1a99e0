import type { Logger } from '../../kernel/contracts/logger.js';
import { canReadRenderers, createRendererReader, type RendererReader } from './renderer-memory.js';

/** A renderer the watchdog ended. */
export interface RendererKill {
  pid: number;
  /** Its private memory when it was ended (MB). */
  usedMb: number;
  atMs: number;
}

export interface MemoryWatchdogOptions {
  /** A renderer using more private memory than this (MB) is ended. */
  limitMb: number;
  logger: Logger;
  /** How often the renderers are measured while runs hold a browser (default 500 ms). */
  intervalMs?: number;
  /** Default: /proc (see renderer-memory.ts); undefined where it cannot be read. */
  read?: RendererReader;
  /** Default: SIGKILL. */
  kill?: (pid: number) => void;
}

/**
 * Measures the renderer processes of the browsers that runs hold and ends (SIGKILL) any over the limit. A
 * renderer serves one browser context (contexts never share one), so only that run's page crashes; the browser
 * and the other runs go on. The run learns why through its page's crash: `claimKill` names the renderer ended.
 */
export interface MemoryWatchdog {
  /** Measures the renderers under `browserPid` until every hold is released. Returns the release. */
  hold(browserPid: number): () => void;
  /** The oldest renderer ended in the last few seconds that no run has claimed yet (a crashed page's). */
  claimKill(): RendererKill | undefined;
  /** Stops measuring. */
  close(): void;
}

/** A page crash this long after a kill is not that kill's. */
const CLAIM_WINDOW_MS = 10_000;

export function createMemoryWatchdog(options: MemoryWatchdogOptions): MemoryWatchdog {
  const { limitMb, logger } = options;
  const intervalMs = options.intervalMs ?? 500;
  const read = options.read ?? (canReadRenderers() ? createRendererReader() : undefined);
  const kill = options.kill ?? ((pid: number) => process.kill(pid, 'SIGKILL'));
  const holds = new Map<number, number>();
  let kills: Array<RendererKill & { claimed: boolean }> = [];
  let timer: NodeJS.Timeout | undefined;
  if (!read) logger.info({ limitMb }, 'renderer memory cannot be measured here (no /proc): only the JavaScript heap limit applies');

  function tick(): void {
    const now = Date.now();
    kills = kills.filter((entry) => now - entry.atMs < CLAIM_WINDOW_MS);
    for (const browserPid of holds.keys()) {
      let samples;
      try {
        samples = read!(browserPid);
      } catch (error) {
        logger.warn({ err: error, pid: browserPid }, 'measuring the renderers failed');
        continue;
      }
      for (const { pid, privateMb } of samples) {
        if (privateMb <= limitMb || kills.some((entry) => entry.pid === pid)) continue;
        try {
          kill(pid);
        } catch {
          continue; // ended meanwhile
        }
        kills.push({ pid, usedMb: privateMb, atMs: now, claimed: false });
        logger.warn({ pid, usedMb: privateMb, limitMb }, 'a page used more memory than RUN_MEMORY_LIMIT_MB: its renderer was ended');
      }
    }
  }

  function release(browserPid: number): void {
    const count = (holds.get(browserPid) ?? 1) - 1;
    if (count > 0) holds.set(browserPid, count);
    else holds.delete(browserPid);
    if (holds.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  return {
    hold(browserPid) {
      if (!read) return () => undefined;
      holds.set(browserPid, (holds.get(browserPid) ?? 0) + 1);
      timer ??= setInterval(tick, intervalMs).unref();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release(browserPid);
      };
    },
    claimKill() {
      const entry = kills.find((candidate) => !candidate.claimed && Date.now() - candidate.atMs < CLAIM_WINDOW_MS);
      if (!entry) return undefined;
      entry.claimed = true;
      return { pid: entry.pid, usedMb: entry.usedMb, atMs: entry.atMs };
    },
    close() {
      holds.clear();
      clearInterval(timer);
      timer = undefined;
    },
  };
}
