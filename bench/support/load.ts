import { createRequire } from 'node:module';

/** The part of autocannon's programmatic API the bench uses (the package ships no types). */
interface AutocannonOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
  warmup?: { connections: number; duration: number };
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { average: number; p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => PromiseLike<AutocannonResult>;

export interface LoadResult {
  /** Mean of the per-second request counts. */
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** Non-2xx answers, errors and timeouts: anything above 0 makes the figures meaningless. */
  failures: number;
}

export const LOAD = { connections: 10, durationS: 8, warmupS: 1 };

/** `LOAD.connections` connections for `LOAD.durationS` seconds after a `LOAD.warmupS` second warm-up. */
export async function runLoad(url: string, options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: LOAD.connections,
    duration: LOAD.durationS,
    warmup: { connections: LOAD.connections, duration: LOAD.warmupS },
  });
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
