/**
 * `npm run bench:runs`: a six-action task against a local page, measured in one run, in parts:
 * - `service`: 1. baseline: a bare Playwright script, warm browser, fresh context per run, one run after another
 *   (and, as the machine's own ceiling for parallel runs, the same script 4 at a time); 2. taskloom:
 *   `POST /api/tasks/{id}/api` on a spawned service (MAX_CONCURRENT_RUNS=4), one after another, interleaved run for
 *   run with the bare script (so both see the same machine load): the median ratio; 3. taskloom: 20 runs at once
 *   (throughput against the sequential runs); 4. whether the service's memory grows with the number of runs: VmRSS
 *   of the node process (the browser not included) once idle after 100 runs in all, and again after 1,000 (each the
 *   least seen over 15 s of idling, once V8 has returned the garbage of the last runs); the target is within 10 %
 *   (`BENCH_MEMORY_RUNS=0` leaves step 4 out).
 * - `acquisition`: 5. context acquisition in the browser pool (in this process, same engine and Chromium), with warm
 *   contexts as the service keeps them and without.
 * - `healing`: the cost of fingerprinting a run's elements (what the first successful run of a task pays; target at
 *   most 5 % of the run) and the time of a deterministic repair (support/healing-cost.ts).
 * - `admission`: the run limits computed from the host (GET /api/capabilities), and a burst of 50 runs against
 *   MAX_QUEUED_RUNS=20: accepted, refused with 429 QUEUE_FULL, every accepted run ended, the time (support/runs-admission.ts).
 * - `http`: a run in browserless mode (mode http) against a browser run (mode scrape) of the same field mapping on the
 *   same list page (support/runs-http-mode.ts; target: at most a fifth).
 * - `queue`: the wait of a run in the queue with QUEUE=pg-boss and QUEUE=bullmq against QUEUE=memory
 *   (support/runs-queue.ts; target: at most 30 ms added).
 * - `workers`: runs per minute with one and two worker processes on a shared queue and a remote browser, against the
 *   in-process queue with one and two slots (support/runs-workers.ts; about two minutes).
 * `BENCH_ONLY=service,queue` runs only those parts, `BENCH_SKIP=workers` all but those. Reports each figure against
 * its target; exits 0 unless the bench itself could not run. Kills every child.
 */
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startPagesServer } from '../test/support/pages-server.js';
import { freePort, makeTempDir, mean, median, removeTempDir, spawnNode, waitHealthy, type NodeChild } from './support/children.js';
import { buildService, prepareService, runTask } from './support/runs-service.js';
import { fmt, formatTable, verdict, type Row } from './support/report.js';
import { machineUsage } from './support/cpu-usage.js';
import { runBaseline, startBareScript } from './support/runs-baseline.js';
import { runInterleaved } from './support/runs-interleaved.js';
import { measureAcquisition } from './support/pool-acquisition.js';
import { queueLatencyRows } from './support/runs-queue.js';
import { workerThroughputRows } from './support/runs-workers.js';
import { healingCostRows } from './support/healing-cost.js';
import { admissionRows } from './support/runs-admission.js';
import { httpModeRows } from './support/runs-http-mode.js';

const MAIN = 'app/main.ts';
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const CONCURRENCY = 4;
const WARMUPS = 3;
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 30);
const BURST = 20;
const MEMORY_CHECKPOINT = Number(process.env.BENCH_MEMORY_CHECKPOINT ?? 100);
const MEMORY_RUNS = Number(process.env.BENCH_MEMORY_RUNS ?? 1000);
const SETTLE_MS = 15_000;
/** After each interleaved run: the service's background work (its next warm context) is done before the other side runs. */
const PAUSE_MS = 150;
const ACQUISITIONS = 30;
const HEALING_RUNS = Number(process.env.BENCH_HEALING_RUNS ?? 30);
const HTTP_RUNS = Number(process.env.BENCH_HTTP_RUNS ?? 30);
/** `BENCH_TSX=1` runs the service through the tsx loader (as `npm run dev`) instead of the build. */
const USE_TSX = process.env.BENCH_TSX === '1';
const ENGINE = process.env.BENCH_ENGINE ?? 'playwright';

const say = (line: string) => process.stdout.write(`${line}\n`);

interface Service { proc: NodeChild; dataDir: string; apiKey: string; taskId: string }

async function startTaskloom(script: string, origin: string): Promise<Service> {
  const dataDir = makeTempDir('taskloom-bench-runs-');
  const port = await freePort();
  const env = {
    PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL, BROWSER_ENGINE: ENGINE,
    MAX_CONCURRENT_RUNS: String(CONCURRENCY), ALLOW_PRIVATE_NETWORKS: 'true',
    ...(process.env.LOW_MEMORY ? { LOW_MEMORY: process.env.LOW_MEMORY } : {}),
    // `BROWSER_WARM_CONTEXTS=0 npm run bench:runs` measures the service without warm contexts.
    ...(process.env.BROWSER_WARM_CONTEXTS ? { BROWSER_WARM_CONTEXTS: process.env.BROWSER_WARM_CONTEXTS } : {}),
  };
  const proc = spawnNode(script, port, env, 15_000);
  await waitHealthy(proc, 20);
  return { proc, dataDir, ...await prepareService(proc.baseUrl, origin) };
}

/** One run through the API; resolves to its wall time, or undefined when it did not succeed with the data. */
async function runOnce(svc: Service): Promise<number | undefined> {
  const { ms, ok, res } = await runTask(svc.proc.baseUrl, svc.apiKey, svc.taskId);
  if (!ok) say(`  a run failed: ${res.status} ${res.text.slice(0, 300)}`);
  return ok ? ms : undefined;
}

/** `count` runs with at most `parallel` at a time; resolves to wall time and failures. */
async function runMany(svc: Service, count: number, parallel: number): Promise<{ wallMs: number; times: number[]; failures: number }> {
  const times: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      const ms = await runOnce(svc);
      if (ms === undefined) failures++;
      else times.push(ms);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { wallMs: performance.now() - started, times, failures };
}

/** VmRSS once V8 has returned the garbage of the last runs on its own (its memory reducer): the least seen while idle. */
async function settledRssMb(pid: number): Promise<number> {
  let rss = rssMb(pid);
  for (let waited = 0; waited < SETTLE_MS; waited += 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rss = Math.min(rss, rssMb(pid));
  }
  return rss;
}

function rssMb(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
}

/** Steps 1 to 4: the bare script, the service one run after another against it, 20 at once, and its memory. */
async function serviceRows(script: string, origin: string): Promise<Row[]> {
  say(`\n[1/5] baseline: bare Playwright, warm browser, fresh context per run (${WARMUPS} warm-up + ${SEQUENTIAL} runs)`);
  const baseline = await runBaseline(origin, WARMUPS, SEQUENTIAL);
  say(`  median ${fmt.ms(median(baseline.times))}, mean ${fmt.ms(mean(baseline.times))}, machine busy ${baseline.busyCores.toFixed(2)} cores`
    + `${baseline.failures ? `, ${baseline.failures} FAILED` : ''}`);
  // What the machine allows: the same bare script, CONCURRENCY runs at a time. A run that keeps u cores busy
  // on its own can go at most cores / u times faster in parallel, whoever drives the browser.
  const baseParallel = await runBaseline(origin, WARMUPS, BURST, CONCURRENCY);
  const baseSpeedup = (baseParallel.times.length / baseParallel.wallMs) / (baseline.times.length / baseline.wallMs);
  say(`  ${CONCURRENCY} at a time: ${(baseParallel.times.length / (baseParallel.wallMs / 1000)).toFixed(2)} runs/s, ${baseSpeedup.toFixed(2)}x sequential,`
    + ` machine busy ${baseParallel.busyCores.toFixed(2)} of ${os.cpus().length} cores${baseParallel.failures ? `, ${baseParallel.failures} FAILED` : ''}`);

  say(`\n[2/5] taskloom (${USE_TSX ? 'tsx loader' : 'built, as npm start'}, engine ${ENGINE}): POST /api/tasks/{id}/api, one after another,`
    + ` interleaved with the bare script (${WARMUPS} warm-up + ${SEQUENTIAL} runs each, ${PAUSE_MS} ms after each, MAX_CONCURRENT_RUNS=${CONCURRENCY},`
    + ` BROWSER_WARM_CONTEXTS=${process.env.BROWSER_WARM_CONTEXTS ?? 'its default'})`);
  const svc = await startTaskloom(script, origin);
  try {
    await runMany(svc, WARMUPS, 1);
    const bare = await startBareScript(origin);
    let both;
    try {
      for (let i = 0; i < WARMUPS; i++) await bare.run();
      both = await runInterleaved({ run: () => runOnce(svc) }, bare, SEQUENTIAL, PAUSE_MS);
    } finally {
      await bare.close();
    }
    const sequential = both.a;
    const pairedMedian = median(both.b.times);
    const seqMedian = median(sequential.times);
    const seqThroughput = sequential.times.length / (sequential.times.reduce((sum, ms) => sum + ms, 0) / 1000);
    say(`  taskloom median ${fmt.ms(seqMedian)}, mean ${fmt.ms(mean(sequential.times))}; bare script median ${fmt.ms(pairedMedian)},`
      + ` mean ${fmt.ms(mean(both.b.times))}: ${fmt.ratio(seqMedian / pairedMedian)}; machine busy ${both.busyCores.toFixed(2)} cores`
      + `${sequential.failures + both.b.failures ? `, ${sequential.failures + both.b.failures} FAILED` : ''}`);

    say(`\n[3/5] taskloom: ${BURST} runs at once (MAX_CONCURRENT_RUNS=${CONCURRENCY})`);
    const burstUsage = machineUsage();
    const burst = await runMany(svc, BURST, BURST);
    const burstBusy = burstUsage.stop();
    const burstThroughput = burst.times.length / (burst.wallMs / 1000);
    say(`  ${fmt.ms(burst.wallMs)} for ${BURST}: ${burstThroughput.toFixed(2)} runs/s, median answer ${fmt.ms(median(burst.times))},`
      + ` machine busy ${burstBusy.toFixed(2)} of ${os.cpus().length} cores`
      + `${burst.failures ? `, ${burst.failures} FAILED` : ''}`);

    const ratio = seqMedian / pairedMedian;
    const speedup = burstThroughput / seqThroughput;
    const rows: Row[] = [
      {
        metric: 'median run time', value: fmt.ms(seqMedian), target: '<= 0.90x bare script', baseline: fmt.ms(pairedMedian),
        ratio: fmt.ratio(ratio), result: verdict(ratio <= 0.9, both.b.failures + sequential.failures > 0),
      },
      {
        metric: `throughput, ${BURST} at once`, value: `${burstThroughput.toFixed(2)} runs/s`, target: '>= 2.5x sequential',
        baseline: `${seqThroughput.toFixed(2)} runs/s`, ratio: fmt.ratio(speedup), result: verdict(speedup >= 2.5, burst.failures > 0),
      },
      {
        metric: `bare Playwright, ${CONCURRENCY} at a time`, value: `${fmt.ratio(baseSpeedup)} sequential`, target: '(the machine\'s ceiling)',
        baseline: `${fmt.ratio(os.cpus().length / baseline.busyCores)} (cores / busy)`, ratio: '-', result: '-',
      },
    ];
    if (MEMORY_RUNS > 0) rows.push(...await memoryRows(svc, WARMUPS + SEQUENTIAL + BURST));
    return rows;
  } finally {
    await svc.proc.stop();
    await removeTempDir(svc.dataDir);
  }
}

/** Step 4: VmRSS of the service idle after MEMORY_CHECKPOINT and after MEMORY_RUNS runs (`done` ran already). */
async function memoryRows(svc: Service, done: number): Promise<Row[]> {
  const pid = svc.proc.child.pid!;
  say(`\n[4/5] taskloom memory (${process.env.LOW_MEMORY === 'true' ? 'LOW_MEMORY=true' : "V8's defaults"}): runs ${CONCURRENCY} at a time,`
    + ` VmRSS of the service process once idle after ${MEMORY_CHECKPOINT} and after ${MEMORY_RUNS} runs`);
  const early = await runMany(svc, Math.max(0, MEMORY_CHECKPOINT - done), CONCURRENCY);
  const rssEarly = await settledRssMb(pid);
  say(`  after ${MEMORY_CHECKPOINT} runs: ${rssEarly.toFixed(1)} MB idle`);
  const rest = await runMany(svc, MEMORY_RUNS - Math.max(done, MEMORY_CHECKPOINT), CONCURRENCY);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rssAtOnce = rssMb(pid);
  const rss = await settledRssMb(pid);
  const failures = early.failures + rest.failures;
  say(`  after ${MEMORY_RUNS} runs: ${rssAtOnce.toFixed(1)} MB 1 s after the last, ${rss.toFixed(1)} MB idle`
    + `${failures ? `, ${failures} FAILED` : ''}`);
  return [
    {
      metric: `service RSS 1 s after ${MEMORY_RUNS} runs`, value: `${rssAtOnce.toFixed(1)} MB`, target: '(shown)', baseline: '-',
      ratio: '-', result: '-',
    },
    {
      metric: `service RSS idle after ${MEMORY_RUNS} runs`, value: `${rss.toFixed(1)} MB`, target: `<= 1.10x after ${MEMORY_CHECKPOINT}`,
      baseline: `${rssEarly.toFixed(1)} MB after ${MEMORY_CHECKPOINT}`, ratio: fmt.ratio(rss / rssEarly),
      result: verdict(rss <= rssEarly * 1.1, failures > 0),
    },
  ];
}

/** Step 5: context acquisition in the browser pool, with warm contexts and without. */
async function acquisitionRows(origin: string): Promise<Row[]> {
  say(`\n[5/5] context acquisition in the browser pool (in this process, engine ${ENGINE}, ${ACQUISITIONS} runs each):`
    + ` ${CONCURRENCY} warm contexts (as the service keeps them) and none`);
  const warmAcq = await measureAcquisition(ENGINE, `${origin}/`, CONCURRENCY, ACQUISITIONS + 1, PAUSE_MS);
  const coldAcq = await measureAcquisition(ENGINE, `${origin}/`, 0, ACQUISITIONS + 1, PAUSE_MS);
  say(`  warm: context in ${fmt.ms(median(warmAcq.acquire))}, first page in ${fmt.ms(median(warmAcq.firstPage))} (medians);`
    + ` none: ${fmt.ms(median(coldAcq.acquire))}, ${fmt.ms(median(coldAcq.firstPage))}`);
  return [
    {
      metric: 'context acquisition (pool)', value: fmt.ms(median(warmAcq.acquire)), target: '< 30 ms',
      baseline: `${fmt.ms(median(coldAcq.acquire))} without warm`, ratio: '-', result: verdict(median(warmAcq.acquire) < 30),
    },
    {
      metric: 'context + first page (pool)', value: fmt.ms(median(warmAcq.firstPage)), target: '(shown)',
      baseline: `${fmt.ms(median(coldAcq.firstPage))} without warm`, ratio: fmt.ratio(median(warmAcq.firstPage) / median(coldAcq.firstPage)), result: '-',
    },
  ];
}

/** The bench's parts, in order; `BENCH_ONLY=queue,workers` runs some, `BENCH_SKIP=memory,workers` leaves some out. */
const PARTS = ['service', 'acquisition', 'healing', 'admission', 'http', 'queue', 'workers'] as const;
type Part = (typeof PARTS)[number];

function chosenParts(): Part[] {
  const list = (name: string) => (process.env[name] ?? '').split(',').map((part) => part.trim()).filter(Boolean);
  const only = list('BENCH_ONLY');
  const skip = list('BENCH_SKIP');
  for (const part of [...only, ...skip]) {
    if (!PARTS.includes(part as Part)) throw new Error(`unknown bench part "${part}" in BENCH_ONLY/BENCH_SKIP: use ${PARTS.join(', ')}`);
  }
  return PARTS.filter((part) => (only.length === 0 || only.includes(part)) && !skip.includes(part));
}

async function main(): Promise<void> {
  const parts = chosenParts();
  say(`taskloom run bench: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')};`
    + ` parts: ${parts.join(', ')}`);
  const script = USE_TSX ? MAIN : buildService();
  const pages = await startPagesServer();
  const rows: Row[] = [];
  try {
    if (parts.includes('service')) rows.push(...await serviceRows(script, pages.origin));
    if (parts.includes('acquisition')) rows.push(...await acquisitionRows(pages.origin));
    if (parts.includes('healing')) {
      say(`\n[healing] a run of four selector actions with every element fingerprinted against the same run without healing`
        + ` (interleaved, ${HEALING_RUNS} runs each), and the deterministic repair of a broken selector`);
      rows.push(...await healingCostRows(ENGINE, HEALING_RUNS, say));
    }
    if (parts.includes('admission')) {
      say(`\n[admission] the limits computed from this host (no MAX_CONCURRENT_RUNS), and 50 runs sent at once with MAX_QUEUED_RUNS=20`);
      rows.push(...await admissionRows(script, pages.origin, say));
    }
    if (parts.includes('http')) {
      say(`\n[http] browserless mode: the same field mapping on the same list page in mode http and mode scrape (a browser),`
        + ` interleaved (${HTTP_RUNS} runs each)`);
      rows.push(...await httpModeRows(script, pages.origin, HTTP_RUNS, say));
    }
    if (parts.includes('queue')) {
      say('\n[queue] the same task one after another with QUEUE=memory, pg-boss and bullmq (STORAGE=postgres each)');
      rows.push(...await queueLatencyRows(script, pages.origin, say));
    }
    if (parts.includes('workers')) {
      say('\n[workers] runs sent at once, run by one process on the in-process queue, or by 1 and 2 worker processes on a shared'
        + ' queue, all on one remote browser (a Playwright browser server; BENCH_SKIP=workers leaves this out)');
      rows.push(...await workerThroughputRows(script, pages.origin, say));
    }
    say(`\nload at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}\n\n${formatTable(rows)}`);
  } finally {
    await pages.close();
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
