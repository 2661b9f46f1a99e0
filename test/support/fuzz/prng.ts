// A small seeded generator for the API fuzzer (sfc32 seeded through splitmix32): the same seed gives the same
// requests, so a failure found in CI replays with FUZZ_SEED=<seed>.

export interface Prng {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A generator of its own for `label` (one per operation), so adding an operation does not shift the others. */
  fork(label: string): Prng;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function createPrng(seed: number): Prng {
  const init = splitmix32(seed);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  const prng: Prng = {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    fork: (label) => createPrng((seed ^ hash(label)) >>> 0),
  };
  return prng;
}

/** The seed to use: FUZZ_SEED when given (a number), else the fixed one CI runs with. */
export function fuzzSeed(env: NodeJS.ProcessEnv = process.env, fixed = 20250615): number {
  const given = env.FUZZ_SEED;
  if (given === undefined || given === '') return fixed;
  const seed = Number(given);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`FUZZ_SEED must be an integer 0..4294967295, got ${given}`);
  return seed;
}
