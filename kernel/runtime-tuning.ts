import v8 from 'node:v8';

/**
 * Process-wide V8 tuning for a long-running service, applied once at start-up.
 *
 * - What the service allocates per request and per run is short-lived bookkeeping. On a large machine V8 lets
 *   the young generation grow to 32 MB and keeps it resident; holding it at its starting size keeps some 30 MB
 *   of RSS off for a few extra sub-millisecond scavenges.
 * - A browser engine's messages are large, short-lived strings (scripts injected into every page) that go
 *   straight to the old generation. V8's default lets the heap grow up to 4x what survived the last full
 *   collection before collecting again; 1.25x keeps the service near its live size (bench:runs measures it).
 *
 * An operator who sizes the heap (`--max-semi-space-size` in NODE_OPTIONS or on node's command line,
 * `--heap-growing-percent` on the command line: node refuses it in NODE_OPTIONS) keeps their choice. The entry
 * point imports `./runtime-tuned.js` first, so the tuning holds before the rest of the service loads: V8 never
 * shrinks a young generation that already grew while loading (the small young generation costs start-up ~0.1 s).
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
