/** Checks the arguments of `CounterStore.add` the same way in every provider. */
export function checkCounterArgs(delta: number, options: { windowMs: number; limit?: number }): void {
  if (!Number.isSafeInteger(delta)) throw new TypeError(`counters: delta must be an integer, got ${delta}`);
  if (!Number.isFinite(options.windowMs) || options.windowMs <= 0) {
    throw new TypeError(`counters: windowMs must be a positive number of milliseconds, got ${options.windowMs}`);
  }
  if (options.limit !== undefined && !Number.isFinite(options.limit)) throw new TypeError(`counters: limit must be a number, got ${options.limit}`);
}
