import type { CounterState, CounterStore } from '../../../kernel/contracts/storage.js';
import { checkCounterArgs } from '../shared/counter-args.js';
import type { StoreGate } from './store-context.js';

/** Expired counts are dropped every this many adds, so the map does not grow forever. */
const SWEEP_EVERY = 1024;

/**
 * In memory: a json store serves one process (one taskloom per data directory), so its counts are that process's,
 * and a login attempt costs no disk write. Counts start afresh with the process, as the contract allows.
 */
export class JsonCounterStore implements CounterStore {
  private readonly counts = new Map<string, { count: number; expiresAtMs: number }>();
  private addsSinceSweep = 0;

  constructor(private readonly gate: StoreGate, private readonly now: () => number = Date.now) {}

  async add(key: string, delta: number, options: { windowMs: number; limit?: number }): Promise<CounterState> {
    this.gate.assertOpen();
    checkCounterArgs(delta, options);
    const now = this.now();
    if (++this.addsSinceSweep >= SWEEP_EVERY) this.sweep(now);
    const held = this.counts.get(key);
    const live = held && held.expiresAtMs > now ? held : undefined;
    const count = live?.count ?? 0;
    const expiresAtMs = live?.expiresAtMs ?? now + options.windowMs;
    const next = Math.max(0, count + delta);
    const state = (added: boolean, value: number) => ({ added, count: value, resetInMs: live || (added && delta > 0) ? expiresAtMs - now : 0 });
    if (options.limit !== undefined && delta > 0 && next > options.limit) return state(false, count);
    if (!live && delta <= 0) {
      this.counts.delete(key);
      return state(true, 0);
    }
    this.counts.set(key, { count: next, expiresAtMs });
    return state(true, next);
  }

  async reset(key: string): Promise<boolean> {
    this.gate.assertOpen();
    const held = this.counts.get(key);
    this.counts.delete(key);
    return held !== undefined && held.expiresAtMs > this.now();
  }

  private sweep(now: number): void {
    this.addsSinceSweep = 0;
    for (const [key, held] of this.counts) if (held.expiresAtMs <= now) this.counts.delete(key);
  }
}
