/** Runs holding a slot and runs waiting for one, as the runs plugin's queue counts them. */
export interface RunCounts {
  running: number;
  queued: number;
}

/** One HTTP request as the latency histogram labels it. */
export interface HttpRequestSample {
  method: string;
  /** The route pattern (`/api/tasks/:id`), never the raw URL: ids would make a series each. */
  route: string;
  statusCode: number;
  seconds: number;
}

/**
 * The service's Prometheus instruments (`app.metrics`). Each service has its own registry, so several
 * services in one process (the tests) never share a series. Plugins report through these methods; gauges
 * read their sources when scraped, so a number is never stale or double-counted.
 */
export interface Metrics {
  /**
   * A run reached its final status and outcome (layers/outcomes/); `seconds` only when it started (one cancelled in
   * the queue never ran).
   */
  runFinished(status: string, seconds?: number, outcome?: string): void;
  /** A rotated run through `proxy` (its server, or `host`) at `site` ended; `blocked`: it met a bot wall. */
  proxyRun(site: string, proxy: string, blocked: boolean): void;
  /** AI provider calls made by runs (healing's AI step): 0 while every selector matches. */
  aiCalls(calls: number): void;
  /** Where the queued and running gauges read from (the runs plugin's queue); a later call replaces it. */
  observeRuns(source: () => RunCounts): void;
  /** Adds a source of open browser contexts; the gauge is their sum. Returns a function that removes it. */
  observeBrowserContexts(source: () => number): () => void;
  httpRequest(sample: HttpRequestSample): void;
  /** The text exposition format and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/** Final statuses with their outcomes, pre-set to 0 so `rate()` sees each series from the first scrape. */
const FINAL_SERIES = [
  ...['success', 'error', 'timeout', 'cancelled', 'interrupted'].map((status) => ({ status, outcome: status })),
  { status: 'success', outcome: 'stopped' }, { status: 'error', outcome: 'crashed' }, { status: 'error', outcome: 'anti_bot' },
  // Data that broke its task's expectations: failed, or only warned (README "Run intelligence").
  { status: 'error', outcome: 'invalid_data' }, { status: 'success', outcome: 'invalid_data' },
];
/** Runs last from well under a second (scrape mode) to the 120 s default timeout and beyond. */
const RUN_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

type PromClient = typeof import('prom-client');

interface Instruments {
  registry: import('prom-client').Registry;
  runFinished(status: string, seconds?: number, outcome?: string): void;
  proxyRun(site: string, proxy: string, blocked: boolean): void;
  aiCalls(calls: number): void;
  httpRequest(sample: HttpRequestSample): void;
}

/** The registry and its instruments; gauges read `runCounts` and `contextSources` when scraped. */
function createInstruments(
  { Counter, Gauge, Histogram, Registry, collectDefaultMetrics }: PromClient,
  runCounts: () => RunCounts,
  contextSources: Set<() => number>,
): Instruments {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const runsTotal = new Counter({
    name: 'taskloom_runs_total', help: 'Runs that ended, by final status and outcome.', labelNames: ['status', 'outcome'] as const, registers,
  });
  for (const series of FINAL_SERIES) runsTotal.inc(series, 0);
  // Block rate per site and proxy: blocks / runs.
  const proxyRuns = new Counter({
    name: 'taskloom_proxy_runs_total', help: 'Rotated runs by the site (task URL host) and the proxy they went through.',
    labelNames: ['site', 'proxy'] as const, registers,
  });
  const proxyBlocks = new Counter({
    name: 'taskloom_proxy_blocks_total', help: 'Rotated runs that met a bot wall (outcome anti_bot), by site and proxy.',
    labelNames: ['site', 'proxy'] as const, registers,
  });
  const runDuration = new Histogram({
    name: 'taskloom_run_duration_seconds', help: 'How long runs took from their start (after the queue) to their end.',
    labelNames: ['status'] as const, buckets: RUN_BUCKETS, registers,
  });
  new Gauge({
    name: 'taskloom_runs_queued', help: 'Runs waiting for a slot (MAX_CONCURRENT_RUNS).', registers,
    collect() { this.set(runCounts().queued); },
  });
  new Gauge({
    name: 'taskloom_runs_running', help: 'Runs holding a slot.', registers,
    collect() { this.set(runCounts().running); },
  });
  new Gauge({
    name: 'taskloom_browser_contexts_open', help: 'Browser contexts opened and not yet closed.', registers,
    collect() { this.set([...contextSources].reduce((sum, source) => sum + source(), 0)); },
  });
  const aiCallsTotal = new Counter({
    name: 'taskloom_run_ai_calls_total', help: 'AI provider calls made by runs (the repair of a selector that matched nothing).', registers,
  });
  aiCallsTotal.inc(0);
  const httpDuration = new Histogram({
    name: 'taskloom_http_request_duration_seconds', help: 'HTTP request latency by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const, buckets: HTTP_BUCKETS, registers,
  });

  return {
    registry,
    runFinished(status, seconds, outcome = status) {
      runsTotal.inc({ status, outcome });
      if (seconds !== undefined) runDuration.observe({ status }, seconds);
    },
    proxyRun(site, proxy, blocked) {
      proxyRuns.inc({ site, proxy });
      proxyBlocks.inc({ site, proxy }, blocked ? 1 : 0);
    },
    aiCalls(calls) {
      aiCallsTotal.inc(calls);
    },
    httpRequest({ method, route, statusCode, seconds }) {
      httpDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
  };
}

/**
 * prom-client (some 90 files with its OpenTelemetry API) loads with the first observation (the first answered
 * request) or scrape, not with the service; observations made while it loads are applied once it has.
 */
export function createMetrics(): Metrics {
  let runCounts: () => RunCounts = () => ({ running: 0, queued: 0 });
  const contextSources = new Set<() => number>();
  let instruments: Instruments | undefined;
  let loading: Promise<Instruments> | undefined;
  let pending: Array<(ready: Instruments) => void> = [];
  let failed = false;

  const load = () => loading ??= import('prom-client').then((client) => {
    const ready = createInstruments(client, () => runCounts(), contextSources);
    for (const apply of pending) apply(ready);
    pending = [];
    instruments = ready;
    return ready;
  }, (error: unknown) => {
    failed = true; // observations stop queueing; every scrape reports the error
    pending = [];
    throw error;
  });
  const record = (apply: (ready: Instruments) => void) => {
    if (instruments) return apply(instruments);
    if (failed) return;
    if (!loading) load().catch(() => {});
    pending.push(apply);
  };

  return {
    runFinished(status, seconds, outcome) {
      record((ready) => ready.runFinished(status, seconds, outcome));
    },
    proxyRun(site, proxy, blocked) {
      record((ready) => ready.proxyRun(site, proxy, blocked));
    },
    aiCalls(calls) {
      record((ready) => ready.aiCalls(calls));
    },
    observeRuns(source) {
      runCounts = source;
    },
    observeBrowserContexts(source) {
      contextSources.add(source);
      return () => { contextSources.delete(source); };
    },
    httpRequest(sample) {
      record((ready) => ready.httpRequest(sample));
    },
    async scrape() {
      const { registry } = await load();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
