import { Type } from 'typebox';

/** An empty page's renderer takes 20-40 MB: a lower limit would end every run. */
export const MIN_RUN_MEMORY_MB = 128;

const ENDPOINT_PROTOCOLS = ['ws:', 'wss:', 'http:', 'https:'];

/** Why `value` is not a browser endpoint URL; undefined when it is. Never repeats the value (it may hold a token). */
function endpointProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URL';
  }
  return ENDPOINT_PROTOCOLS.includes(url.protocol) ? undefined : `must use ${ENDPOINT_PROTOCOLS.join(' or ')}, not ${url.protocol}`;
}

/** The variables of the browser layer (read through the kernel). */
export const poolSettings = Type.Object({
  /** The Chromium to launch, before any detected one. */
  BROWSER_EXECUTABLE_PATH: Type.Optional(Type.String()),
  /** Connect to this remote browser (Playwright server or DevTools endpoint) instead of launching one. */
  BROWSER_WS_ENDPOINT: Type.Optional(Type.Refine(Type.String(), (value) => !endpointProblem(value), (value) => endpointProblem(value) ?? '')),
  /**
   * With BROWSER_WS_ENDPOINT: `shared`, one connection every run uses (reconnected when lost); `per-run`, one
   * connection (one grid session) per run, closed at its end, a refusal (HTTP 429/503, no answer in time)
   * failing the run as retryable.
   */
  BROWSER_REMOTE_MODE: Type.Union([Type.Literal('shared'), Type.Literal('per-run')], { default: 'shared' }),
  /**
   * Contexts kept ready (each with a blank page) on the launched browser, one per free run slot at most:
   * default MAX_CONCURRENT_RUNS; 0: none.
   */
  BROWSER_WARM_CONTEXTS: Type.Optional(Type.Integer({ minimum: 0, maximum: 1024 })),
  /** Warm contexts are closed after this long (ms) without a run starting or ending; the next run's end remakes them. */
  BROWSER_WARM_IDLE_MS: Type.Integer({ minimum: 100, maximum: 86_400_000, default: 2000 }),
  /** Read here only as the default of BROWSER_WARM_CONTEXTS (the kernel reads and checks it). */
  MAX_CONCURRENT_RUNS: Type.Optional(Type.Integer({ minimum: 1, maximum: 1024 })),
  /**
   * What one page may use (its JavaScript heap, and its renderer's private memory, checked by a watchdog), in
   * MB; 0: no limit.
   */
  RUN_MEMORY_LIMIT_MB: Type.Refine(
    Type.Integer({ minimum: 0, maximum: 1_048_576, default: 1024 }),
    (mb) => mb === 0 || mb >= MIN_RUN_MEMORY_MB,
    (mb) => `is "${mb}"; expected 0 (no limit) or at least ${MIN_RUN_MEMORY_MB}`,
  ),
});
