/**
 * `npm run bench:api`: start-up time, GET/POST /api/tasks throughput and p99, the cost of
 * appending one execution to a history of 100,000, and webhook deliveries (the cost of storing one per event, and
 * the sender's throughput to a local receiver), each next to a baseline measured in the same run (a bare Fastify
 * server; a bare appended, fdatasync'd line; plain signed POSTs). Reports; never fails on a target.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ADMIN, request, sessionCookie } from '../test/support/service.js';
import { benchAppend, type AppendResult } from './support/append.js';
import { benchWebhooks, type WebhookBench } from './support/webhook-deliveries.js';
import { freePort, makeTempDir, median, removeTempDir, spawnNode, waitHealthy, type NodeChild } from './support/children.js';
import { makeTask } from './support/fixtures.js';
import { LOAD, runLoad, type LoadResult } from './support/load.js';
import { fmt, formatTable, verdict, type Row } from './support/report.js';

// What `npm start` runs (the bench:api script builds it first).
const MAIN = 'dist/app/main.js';
const BASELINE = 'bench/support/baseline-server.mjs';
/** Per-request logging at `info` would measure pino, not the API; override with BENCH_LOG_LEVEL. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const STARTS = 3;
const SIZES = [100, 1_000] as const;
const HISTORY = 100_000;
const APPENDS = 1_000;
const SEED_CONCURRENCY = 10;
const WEBHOOK_EVENTS = 1_000;
const WEBHOOK_DELIVERIES = 5_000;

const say = (line: string) => process.stdout.write(`${line}\n`);
/** Other work on the machine skews every figure: the 1/5/15-minute load averages are printed with them. */
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' / ');

interface Taskloom { proc: NodeChild; dataDir: string; startMs: number }

/** Spawns the service on a fresh DATA_DIR; `startMs` runs from spawn to the first 200 of /api/health. */
async function startTaskloom(): Promise<Taskloom> {
  const dataDir = makeTempDir('taskloom-bench-data-');
  const port = await freePort();
  const started = performance.now();
  const proc = spawnNode(MAIN, port, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL });
  await waitHealthy(proc, 20);
  return { proc, dataDir, startMs: performance.now() - started };
}

async function stopTaskloom(t: Taskloom): Promise<void> {
  await t.proc.stop();
  await removeTempDir(t.dataDir);
}

async function setupApiKey(baseUrl: string): Promise<string> {
  const setup = await request(baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
  if (setup.status !== 200) throw new Error(`setup failed: ${setup.status} ${setup.text}`);
  const key = await request(baseUrl, 'POST', '/api/settings/api-key', { cookie: sessionCookie(setup.headers) });
  if (key.status !== 200 || typeof key.body?.apiKey !== 'string') throw new Error(`api key failed: ${key.status} ${key.text}`);
  return key.body.apiKey as string;
}

/** Creates tasks `from` .. `to - 1` through the API, a few requests at a time. */
async function seedTasks(baseUrl: string, apiKey: string, from: number, to: number): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < to) {
      const i = next++;
      const res = await request(baseUrl, 'POST', '/api/tasks', { body: makeTask(i), apiKey });
      if (res.status < 200 || res.status > 299) throw new Error(`creating task ${i} failed: ${res.status} ${res.text}`);
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
}

/** The exact `GET /api/tasks` answer, checked to hold `count` tasks. */
async function fetchTasksJson(baseUrl: string, apiKey: string, count: number): Promise<string> {
  const res = await request(baseUrl, 'GET', '/api/tasks', { apiKey });
  const tasks = Array.isArray(res.body) ? res.body : undefined;
  if (res.status !== 200 || tasks?.length !== count) {
    throw new Error(`GET /api/tasks: expected ${count} tasks, got ${res.status} ${res.text.slice(0, 200)}`);
  }
  return res.text;
}

const describe = (r: LoadResult) =>
  `${fmt.rps(r.reqPerSec)}, p50 ${fmt.ms(r.p50Ms)}, p99 ${fmt.ms(r.p99Ms)}, ${r.total} requests${r.failures ? `, ${r.failures} FAILED` : ''}`;

interface HttpFigures { get: Record<number, LoadResult>; post: LoadResult; postBytes: number; startMs: number[] }

async function benchTaskloom(workDir: string): Promise<HttpFigures> {
  const startMs: number[] = [];
  say(`\n[1/5] start-up to a healthy answer (${STARTS} starts, fresh DATA_DIR each, LOG_LEVEL=${LOG_LEVEL})`);
  for (let i = 0; i < STARTS; i++) {
    const t = await startTaskloom();
    startMs.push(t.startMs);
    say(`  start ${i + 1}: ${fmt.ms(t.startMs)}`);
    await stopTaskloom(t);
  }

  const load = `${LOAD.connections} connections, ${LOAD.durationS} s after ${LOAD.warmupS} s warm-up`;
  say(`\n[2/5] taskloom HTTP (${load})`);
  const t = await startTaskloom();
  try {
    const baseUrl = t.proc.baseUrl;
    const apiKey = await setupApiKey(baseUrl);
    const get: Record<number, LoadResult> = {};
    let seeded = 0;
    for (const size of SIZES) {
      const seedStart = performance.now();
      await seedTasks(baseUrl, apiKey, seeded, size);
      seeded = size;
      const json = await fetchTasksJson(baseUrl, apiKey, size);
      await fs.writeFile(path.join(workDir, `tasks-${size}.json`), json);
      say(`  seeded ${size} tasks in ${fmt.ms(performance.now() - seedStart)}; GET /api/tasks answer is ${(json.length / 1024).toFixed(0)} KB`);
      get[size] = await runLoad(`${baseUrl}/api/tasks`, { headers: { 'x-api-key': apiKey } });
      say(`  GET  /api/tasks (${size} tasks): ${describe(get[size])}`);
    }
    const body = JSON.stringify(makeTask(1_000_000));
    const post = await runLoad(`${baseUrl}/api/tasks`, {
      method: 'POST', body, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    });
    say(`  POST /api/tasks (${body.length} B body): ${describe(post)}`);
    return { get, post, postBytes: body.length, startMs };
  } finally {
    await stopTaskloom(t);
  }
}

/** Spawns the bare Fastify server answering with the tasks JSON saved for `size`. */
async function startBaseline(workDir: string, size: number): Promise<{ proc: NodeChild; startMs: number }> {
  const port = await freePort();
  const started = performance.now();
  const proc = spawnNode(BASELINE, port, { BASELINE_PORT: String(port), BASELINE_BODY_FILE: path.join(workDir, `tasks-${size}.json`) });
  await waitHealthy(proc, 20);
  return { proc, startMs: performance.now() - started };
}

async function benchBaseline(workDir: string): Promise<HttpFigures> {
  say('\n[3/5] baseline: bare Fastify 5 (plain node, like the built service), same answers, same load');
  const startMs: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const { proc, startMs: ms } = await startBaseline(workDir, SIZES[0]);
    startMs.push(ms);
    await proc.stop();
  }
  say(`  start-up to a healthy answer: ${startMs.map(fmt.ms).join(', ')}`);
  const get: Record<number, LoadResult> = {};
  let post: LoadResult | undefined;
  const body = JSON.stringify(makeTask(1_000_000));
  for (const size of SIZES) {
    const { proc } = await startBaseline(workDir, size);
    try {
      get[size] = await runLoad(`${proc.baseUrl}/api/tasks`, { headers: { 'x-api-key': 'unused' } });
      say(`  GET  /api/tasks (${size} tasks): ${describe(get[size])}`);
      if (!post) {
        post = await runLoad(`${proc.baseUrl}/api/tasks`, {
          method: 'POST', body, headers: { 'x-api-key': 'unused', 'content-type': 'application/json' },
        });
        say(`  POST /api/tasks (echo): ${describe(post)}`);
      }
    } finally {
      await proc.stop();
    }
  }
  return { get, post: post!, postBytes: body.length, startMs };
}

function httpRows(label: string, ours: LoadResult, base: LoadResult, minRps?: number, maxP99?: number): Row[] {
  const invalid = ours.failures > 0 || base.failures > 0;
  return [
    {
      metric: `${label} req/s`,
      value: fmt.rps(ours.reqPerSec),
      target: minRps === undefined ? '-' : `>= ${minRps.toLocaleString('en-US')}`,
      baseline: fmt.rps(base.reqPerSec),
      ratio: fmt.ratio(ours.reqPerSec / base.reqPerSec),
      result: verdict(minRps === undefined ? undefined : ours.reqPerSec >= minRps, invalid),
    },
    {
      metric: `${label} p99`,
      value: fmt.ms(ours.p99Ms),
      target: maxP99 === undefined ? '-' : `< ${maxP99} ms`,
      baseline: fmt.ms(base.p99Ms),
      ratio: fmt.ratio(ours.p99Ms / Math.max(base.p99Ms, 1)),
      result: verdict(maxP99 === undefined ? undefined : ours.p99Ms < maxP99, invalid),
    },
  ];
}

function appendRows(a: AppendResult): Row[] {
  const label = `append 1 execution to ${a.historySize.toLocaleString('en-US')}`;
  return [
    { metric: `${label}, median`, value: fmt.ms(a.medianMs), target: '< 2 ms', baseline: fmt.ms(a.fsyncMedianMs), ratio: fmt.ratio(a.medianMs / a.fsyncMedianMs), result: verdict(a.medianMs < 2) },
    { metric: `${label}, p99`, value: fmt.ms(a.p99Ms), target: '-', baseline: fmt.ms(a.fsyncP99Ms), ratio: fmt.ratio(a.p99Ms / a.fsyncP99Ms), result: '-' },
    { metric: `${label}, mean`, value: fmt.ms(a.meanMs), target: '-', baseline: '-', ratio: '-', result: '-' },
  ];
}

function webhookRows(w: WebhookBench): Row[] {
  return [
    {
      metric: 'store 1 webhook delivery per event, median', value: fmt.ms(w.storeMedianMs), target: '<= 2 ms',
      baseline: fmt.ms(w.fsyncMedianMs), ratio: fmt.ratio(w.storeMedianMs / w.fsyncMedianMs), result: verdict(w.storeMedianMs <= 2),
    },
    { metric: 'store 1 webhook delivery per event, p99', value: fmt.ms(w.storeP99Ms), target: '-', baseline: '-', ratio: '-', result: '-' },
    {
      metric: `webhook deliveries to a local receiver (${w.deliveries})`, value: `${Math.round(w.deliveriesPerSec)}/s`, target: '>= 500/s',
      baseline: `${Math.round(w.baselinePerSec)}/s`, ratio: fmt.ratio(w.deliveriesPerSec / w.baselinePerSec), result: verdict(w.deliveriesPerSec >= 500),
    },
  ];
}

async function main(): Promise<void> {
  const began = performance.now();
  say(`taskloom bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ${os.platform()} ${os.release()}, load average ${loadAverage()}`);
  const workDir = makeTempDir('taskloom-bench-work-');
  const ours = await benchTaskloom(workDir);
  const base = await benchBaseline(workDir);
  await removeTempDir(workDir);

  say(`\n[4/5] append to the execution history (JSON store in-process, ${HISTORY.toLocaleString('en-US')} records, then ${APPENDS} timed inserts)`);
  const append = await benchAppend(HISTORY, APPENDS, say);
  say(`  loaded ${HISTORY.toLocaleString('en-US')} records in ${(append.loadMs / 1000).toFixed(1)} s; `
    + `insert median ${fmt.ms(append.medianMs)}, p99 ${fmt.ms(append.p99Ms)}, mean ${fmt.ms(append.meanMs)}; `
    + `bare write+fdatasync of the same ${append.lineBytes} B line: median ${fmt.ms(append.fsyncMedianMs)}, p99 ${fmt.ms(append.fsyncP99Ms)}`);

  say(`\n[5/5] webhook deliveries (JSON store in-process: ${WEBHOOK_EVENTS} events stored one by one, then ${WEBHOOK_DELIVERIES} sent, signed, to a local receiver)`);
  const webhooks = await benchWebhooks(WEBHOOK_EVENTS, WEBHOOK_DELIVERIES, say);

  const start = median(ours.startMs);
  const baseStart = median(base.startMs);
  const rows: Row[] = [
    {
      metric: `start-up to healthy (median of ${STARTS})`, value: fmt.ms(start), target: '< 600 ms',
      baseline: fmt.ms(baseStart), ratio: fmt.ratio(start / baseStart), result: verdict(start < 600),
    },
    ...httpRows('GET /api/tasks, 100 tasks', ours.get[100]!, base.get[100]!, 2_000, 50),
    ...httpRows('GET /api/tasks, 1,000 tasks', ours.get[1_000]!, base.get[1_000]!, 300, 50),
    ...httpRows(`POST /api/tasks, ${ours.postBytes} B`, ours.post, base.post),
    ...appendRows(append),
    ...webhookRows(webhooks),
  ];
  say(`\nResults (baseline: bare Fastify 5 child / bare write+fdatasync / plain signed fetch POSTs; ratio = taskloom / baseline; ${((performance.now() - began) / 1000).toFixed(0)} s in all; load average now ${loadAverage()})\n`);
  say(formatTable(rows));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  },
);
