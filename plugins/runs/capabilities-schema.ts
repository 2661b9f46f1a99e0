import { Type, type Static } from 'typebox';

// Imports only TypeBox: the dashboard takes its type from here.

const Figure = { description: 'how it was computed, in plain words' };
/** `GET /api/capabilities`: what this instance can take on, and how it decided. */
export const Capabilities = Type.Object({
  runs: Type.Object({
    maxConcurrentRuns: Type.Integer({ description: 'runs at once on this instance now' }),
    source: Type.Union([Type.Literal('computed'), Type.Literal('MAX_CONCURRENT_RUNS')]),
    configured: Type.Union([Type.Integer(), Type.Null()], { description: 'MAX_CONCURRENT_RUNS when set' }),
    computed: Type.Object({
      limit: Type.Integer(), byCpu: Type.Integer(), byMemory: Type.Integer(), explanation: Type.String(Figure),
    }),
    host: Type.Object({
      memoryMb: Type.Integer(), memorySource: Type.String(), cpus: Type.Number(), cpuSource: Type.String(), reserveMb: Type.Integer(),
    }),
    memoryPerRunMb: Type.Integer(),
    memoryEstimate: Type.Union([Type.Literal('measured'), Type.Literal('RUN_MEMORY_ESTIMATE_MB'), Type.Literal('default')]),
    memorySamples: Type.Integer(),
    averageRunMs: Type.Integer({ description: 'moving average of ended runs (30000 until one ended): behind Retry-After' }),
    runsObserved: Type.Integer(),
    queue: Type.Object({
      provider: Type.String(), shared: Type.Boolean(), counts: Type.String({ description: 'what the bound counts' }),
      queued: Type.Integer(), running: Type.Integer(), maxQueuedRuns: Type.Integer(), fill: Type.Number({ minimum: 0, maximum: 1 }),
      retryAfterSeconds: Type.Integer({ description: 'what a refused run (429 QUEUE_FULL) is told now' }),
    }),
  }),
  browser: Type.Object({
    engine: Type.String({ description: 'BROWSER_ENGINE' }),
    engines: Type.Array(Type.String(), { description: 'the browser engines this service can use' }),
  }),
});
export type CapabilitiesReport = Static<typeof Capabilities>;
