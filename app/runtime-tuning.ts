import v8 from 'node:v8';

/**
 * V8 tuning for a small machine, applied once at start-up when LOW_MEMORY=true (off by default).
 *
 * - What the service allocates per request and per run is short-lived bookkeeping. On a large machine V8 lets
 *   the young generation grow to 32 MB and keeps it resident; holding it at its starting size keeps some 25 MB
 *   of RSS off, at a price: a 100,000-row export takes about 1.9x as long, with as much more CPU, because every
 *   scavenge of the tiny young generation promotes more garbage.
 * - A browser engine's messages are large, short-lived strings (scripts injected into every page) that go
 *   straight to the old generation. V8's default lets the heap grow up to 4x what survived the last full
 *   collection before collecting again; 1.25x keeps the service near its live size.
 *
 * Off by default: V8's own sizing is faster, and the service's memory does not grow with the number of runs
 * either way (bench:runs compares RSS after 100 and after 1,000 runs). An operator who sizes the heap
 * (`--max-semi-space-size` in NODE_OPTIONS or on node's command line, `--heap-growing-percent` on the command
 * line: node refuses it in NODE_OPTIONS) keeps their choice. The entry point imports `./runtime-tuned.js` first,
 * so the tuning holds before the rest of the service loads: V8 never shrinks a young generation that already
 * grew while loading.
 */
const TUNING: ReadonlyArray<{ flag: string; chosenBy: RegExp }> = [
  { flag: '--semi-space-growth-factor=1', chosenBy: /semi[-_]space/ },
  { flag: '--heap-growing-percent=25', chosenBy: /heap[-_]growing/ },
];

/** Resolves to the flags it set. */
export function tuneRuntime(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = [...execArgv, nodeOptions ?? ''].join(' ');
  const applied = TUNING.filter(({ chosenBy }) => !chosenBy.test(given)).map(({ flag }) => flag);
  for (const flag of applied) v8.setFlagsFromString(flag);
  return applied;
}
