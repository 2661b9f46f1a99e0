// Throughput with worker processes on one remote browser: a Playwright browser server (`chromium.launchServer`, as a
// grid's Playwright endpoint) that every process reaches through BROWSER_WS_ENDPOINT, each deployment on a fresh
// PostgreSQL database (STORAGE=postgres), so only the queue and the processes differ:
//   - the in-process queue (QUEUE=memory, one ROLE=all process) with 1 and then 2 run slots: the baseline;
//   - a shared queue (QUEUE=pg-boss by default) with one ROLE=api process taking the requests and one, then two,
//     ROLE=worker processes of 1 slot each running them.
// Each measure sends BENCH_WORKER_RUNS runs at once to the process taking requests and waits for every answer;
// runs per minute = successful runs / that wall time. Which worker ran how many comes from each one's
// `taskloom_runs_total` (GET /api/metrics).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright';
import { detectChromium } from '../../layers/browser-pool/detect-chromium.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres-database.js';
import { request } from '../../test/support/service.js';
import { freePort, makeTempDir, removeTempDir, spawnNode, waitHealthy, type NodeChild } from './children.js';
import { fmt, type Row } from './report.js';
import { prepareService, runTask } from './runs-service.js';

const RUNS = Number(process.env.BENCH_WORKER_RUNS ?? 24);
/** Run slots (MAX_CONCURRENT_RUNS) per worker process. */
const SLOTS = Number(process.env.BENCH_WORKER_SLOTS ?? 1);
const SHARED_QUEUE = process.env.BENCH_WORKER_QUEUE ?? 'pg-boss';
/** `per-run` (one session per run, as in front of a grid) or `shared` (one connection per process). */
const REMOTE_MODE = process.env.BENCH_REMOTE_MODE ?? 'per-run';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Deployment {
  /** Starts a process of the deployment; the first one is set up (admin, API key, the task). */
  add(env: Record<string, string>): Promise<NodeChild>;
  apiKey(): string;
  taskId(): string;
  close(): Promise<void>;
}

/** Processes sharing one fresh database, one secrets key and the remote browser. */
async function deployment(script: string, origin: string, wsEndpoint: string): Promise<Deployment> {
  const db: TestDatabase = await createTestDatabase('taskloom_bench_workers');
  const shared = {
    HOST: '127.0.0.1', LOG_LEVEL: 'warn', ALLOW_PRIVATE_NETWORKS: 'true', STORAGE: 'postgres', DATABASE_URL: db.url(),
    SECRETS_KEY: randomBytes(32).toString('base64'), BROWSER_WS_ENDPOINT: wsEndpoint, BROWSER_REMOTE_MODE: REMOTE_MODE,
    REDIS_URL, QUEUE_PREFIX: `taskloom-bench-${randomBytes(4).toString('hex')}`,
  };
  const members: Array<{ proc: NodeChild; dir: string }> = [];
  let service: { apiKey: string; taskId: string } | undefined;
  return {
    async add(env) {
      const dir = makeTempDir('taskloom-bench-workers-');
      const port = await freePort();
      const proc = spawnNode(script, port, { ...shared, ...env, PORT: String(port), DATA_DIR: dir }, 15_000);
      members.push({ proc, dir });
      await waitHealthy(proc, 50);
      service ??= await prepareService(proc.baseUrl, origin);
      return proc;
    },
    apiKey: () => service!.apiKey,
    taskId: () => service!.taskId,
    async close() {
      await Promise.all(members.map(({ proc }) => proc.stop()));
      await Promise.all(members.map(({ dir }) => removeTempDir(dir)));
      await db.drop();
    },
  };
}

interface Burst { perMinute: number; wallMs: number; failures: number }

/** `count` runs sent at once to `to`; resolves once every answer is in. */
async function burst(to: NodeChild, d: Deployment, count: number, say: (line: string) => void): Promise<Burst> {
  const started = performance.now();
  const runs = await Promise.all(Array.from({ length: count }, () => runTask(to.baseUrl, d.apiKey(), d.taskId())));
  const wallMs = performance.now() - started;
  const failed = runs.filter((run) => !run.ok);
  if (failed[0]) say(`  ${failed.length} runs failed, the first: ${failed[0].res.status} ${failed[0].res.text.slice(0, 300)}`);
  return { perMinute: (count - failed.length) / (wallMs / 60_000), wallMs, failures: failed.length };
}

/** Runs that ended in this process so far (every status), from its metrics. */
async function runsEnded(proc: NodeChild, apiKey: string): Promise<number> {
  const metrics = await request(proc.baseUrl, 'GET', '/api/metrics', { apiKey });
  return [...metrics.text.matchAll(/^taskloom_runs_total\{[^}]*\} (\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}

/** Warms every slot up (a first connection, a first page), then measures a burst; `workers` are counted before and after. */
async function measure(to: NodeChild, d: Deployment, slots: number, workers: NodeChild[], say: (line: string) => void): Promise<Burst & { shares: number[] }> {
  for (let round = 0; round < 2; round++) await burst(to, d, slots, () => undefined);
  const before = await Promise.all(workers.map((worker) => runsEnded(worker, d.apiKey())));
  const result = await burst(to, d, RUNS, say);
  const after = await Promise.all(workers.map((worker) => runsEnded(worker, d.apiKey())));
  return { ...result, shares: after.map((count, i) => count - before[i]!) };
}

const line = (what: string, b: Burst) =>
  `  ${what}: ${RUNS} runs in ${(b.wallMs / 1000).toFixed(1)} s, ${b.perMinute.toFixed(1)} runs/min${b.failures ? `, ${b.failures} FAILED` : ''}`;

/** Measures the in-process queue and the shared one; resolves to the report's rows (and prints a line per measure). */
export async function workerThroughputRows(script: string, origin: string, say: (line: string) => void): Promise<Row[]> {
  const server = await chromium.launchServer({
    executablePath: detectChromium({ configuredPath: process.env.BROWSER_EXECUTABLE_PATH, headless: true }), headless: true,
  });
  const wsEndpoint = server.wsEndpoint();
  const perMinute = (b: Burst) => `${b.perMinute.toFixed(1)} runs/min`;
  try {
    const inProcess = async (slots: number) => {
      const d = await deployment(script, origin, wsEndpoint);
      try {
        const proc = await d.add({ QUEUE: 'memory', ROLE: 'all', MAX_CONCURRENT_RUNS: String(slots) });
        const b = await measure(proc, d, slots, [], say);
        say(line(`QUEUE=memory, one process, MAX_CONCURRENT_RUNS=${slots}`, b));
        return b;
      } finally {
        await d.close();
      }
    };
    const one = await inProcess(SLOTS);
    const two = await inProcess(2 * SLOTS);

    const d = await deployment(script, origin, wsEndpoint);
    let first: Burst;
    let both: Burst & { shares: number[] };
    try {
      const api = await d.add({ QUEUE: SHARED_QUEUE, ROLE: 'api' });
      const workerEnv = { QUEUE: SHARED_QUEUE, ROLE: 'worker', MAX_CONCURRENT_RUNS: String(SLOTS) };
      const w1 = await d.add(workerEnv);
      first = await measure(api, d, SLOTS, [w1], say);
      say(line(`QUEUE=${SHARED_QUEUE}, an api process and 1 worker (MAX_CONCURRENT_RUNS=${SLOTS})`, first));
      const w2 = await d.add(workerEnv);
      both = await measure(api, d, 2 * SLOTS, [w1, w2], say);
      say(`${line(`QUEUE=${SHARED_QUEUE}, an api process and 2 workers`, both)}; runs per worker ${both.shares.join(' / ')}`);
    } finally {
      await d.close();
    }
    const invalid = (...bursts: Burst[]) => (bursts.some((b) => b.failures > 0) ? 'INVALID' : '-');
    return [
      {
        metric: `in-process queue, ${2 * SLOTS} slots in 1 process`, value: perMinute(two), target: '(shown)',
        baseline: `${perMinute(one)}, ${SLOTS} slot${SLOTS === 1 ? '' : 's'}`, ratio: fmt.ratio(two.perMinute / one.perMinute), result: invalid(one, two),
      },
      {
        metric: `${SHARED_QUEUE}, 1 worker process`, value: perMinute(first), target: '(shown)',
        baseline: `${perMinute(one)} in-process`, ratio: fmt.ratio(first.perMinute / one.perMinute), result: invalid(first),
      },
      {
        metric: `${SHARED_QUEUE}, 2 worker processes (runs ${both.shares.join('/')})`, value: perMinute(both), target: '(shown)',
        baseline: `${perMinute(first)} with 1`, ratio: fmt.ratio(both.perMinute / first.perMinute), result: invalid(both),
      },
      {
        metric: `${SHARED_QUEUE}, 2 workers against in-process ${2 * SLOTS} slots`, value: perMinute(both), target: '(shown)',
        baseline: perMinute(two), ratio: fmt.ratio(both.perMinute / two.perMinute), result: '-',
      },
    ];
  } finally {
    await server.close();
  }
}
