/**
 * `npm run bench:export`: seeds 100,000 executions in a JSON store, starts the service on it (a child process,
 * as `npm run dev` runs it) and exports the whole history through `GET /api/executions/export` in each format to
 * /dev/null, sampling the service's RSS every 10 ms. Baselines measured in the same run: the idle service's RSS
 * with the history loaded, and exporting only the newest 1,000 executions. A streamed export shows as a
 * 100,000-row peak close to the 1,000-row peak. Reports; never fails on a target.
 * BENCH_EXPORT_ROWS changes the history size.
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../kernel/contracts/logger.js';
import { openJsonStorage } from '../providers/storage/json/index.js';
import { freePort, makeTempDir, median, removeTempDir, spawnNode, waitHealthy, type NodeChild } from './support/children.js';
import { downloadToDevNull, rssMb, sampleRss, type Download } from './support/export-probe.js';
import { makeExecution } from './support/fixtures.js';
import { fmt, formatTable, verdict, type Row } from './support/report.js';

const HISTORY = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const BASELINE_ROWS = 1_000;
const BASELINE_RUNS = 3;
const FORMATS = ['ndjson', 'csv', 'avro'] as const;
/** Target: the whole history's peak stays within this of the 1,000-row peak. */
const RSS_MARGIN_MB = 32;
const SEED_BATCH = 500;
const silent: Logger = { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => silent };
const say = (line: string) => process.stdout.write(`${line}\n`);
const mb = (v: number) => `${v.toFixed(0)} MB`;
const rowsPerSecond = (rows: number, ms: number) => `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s`;
const baseMs = Date.parse('2025-01-01T00:00:00Z');

/** `HISTORY` executions of 100 tasks straight into the JSON store (makeExecution: run i started i minutes before 2025). */
async function seed(dataDir: string): Promise<number> {
  const started = performance.now();
  const storage = await openJsonStorage({ dir: path.join(dataDir, 'store'), logger: silent });
  const taskIds = Array.from({ length: 100 }, (_, i) => `task_bench_${i}`);
  try {
    for (let first = 0; first < HISTORY; first += SEED_BATCH) {
      const last = Math.min(first + SEED_BATCH, HISTORY);
      await Promise.all(Array.from({ length: last - first }, (_, k) => storage.executions.insert(makeExecution(first + k, taskIds, baseMs))));
      if (last % 20_000 === 0) say(`  seeded ${last.toLocaleString('en-US')}`);
    }
    const stored = await storage.executions.count();
    if (stored !== HISTORY) throw new Error(`the store holds ${stored} executions, expected ${HISTORY}`);
  } finally {
    await storage.close();
  }
  return performance.now() - started;
}

interface Measured extends Download { rows: number; peakMb: number }

/** One export to /dev/null while sampling the service's RSS; checks the status and, for text formats, the row count. */
async function exportOnce(proc: NodeChild, format: string, rows: number): Promise<Measured> {
  // The newest `rows` runs: run i started i minutes before baseMs.
  const from = rows < HISTORY ? `&from=${new Date(baseMs - (rows - 1) * 60_000).toISOString()}` : '';
  const sampler = sampleRss(proc.child.pid!);
  const download = await downloadToDevNull(`${proc.baseUrl}/api/executions/export?format=${format}${from}`);
  const { peakMb } = sampler.stop();
  if (download.status !== 200) throw new Error(`export ${format} answered ${download.status}:\n${proc.tail()}`);
  const lines = format === 'ndjson' ? rows : format === 'csv' ? rows + 1 : undefined;
  if (lines !== undefined && download.newlines !== lines) throw new Error(`export ${format}: ${download.newlines} lines, expected ${lines}`);
  return { ...download, rows, peakMb };
}

function formatRows(format: string, base: Measured, full: Measured): Row[] {
  const label = `export ${full.rows.toLocaleString('en-US')} (${format})`;
  return [
    { metric: `${label}, time`, value: fmt.ms(full.ms), target: '-', baseline: fmt.ms(base.ms), ratio: fmt.ratio(full.ms / base.ms), result: '-' },
    {
      metric: `${label}, throughput`, value: rowsPerSecond(full.rows, full.ms), target: '-',
      baseline: rowsPerSecond(base.rows, base.ms), ratio: fmt.ratio((full.rows / full.ms) / (base.rows / base.ms)), result: '-',
    },
    {
      metric: `${label}, peak RSS`, value: mb(full.peakMb), target: `< ${mb(base.peakMb + RSS_MARGIN_MB)}`,
      baseline: mb(base.peakMb), ratio: fmt.ratio(full.peakMb / base.peakMb), result: verdict(full.peakMb < base.peakMb + RSS_MARGIN_MB),
    },
    { metric: `${label}, size`, value: `${(full.bytes / 1024 / 1024).toFixed(1)} MB`, target: '-', baseline: '-', ratio: '-', result: '-' },
  ];
}

async function main(): Promise<void> {
  say(`bench:export — ${HISTORY.toLocaleString('en-US')} executions; node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}`);
  const dataDir = makeTempDir('taskloom-bench-export-');
  say(`[1/4] seeding the JSON store in ${dataDir}`);
  say(`  done in ${fmt.ms(await seed(dataDir))}`);

  const port = await freePort();
  const proc = spawnNode('app/main.ts', port, {
    PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', AUTH_DISABLED: 'true',
  }, 30_000);
  try {
    const started = performance.now();
    await waitHealthy(proc, 50, 180_000);
    say(`[2/4] service (pid ${proc.child.pid}) healthy with the history loaded after ${fmt.ms(performance.now() - started)}`);
    await sleep(2_000);
    const idle: number[] = [];
    for (let i = 0; i < 20; i++, await sleep(50)) idle.push(rssMb(proc.child.pid!));
    const idleMb = median(idle);
    say(`  idle RSS: ${mb(idleMb)}`);

    say(`[3/4] baseline: the newest ${BASELINE_ROWS.toLocaleString('en-US')} executions, each format ${BASELINE_RUNS} times (after a 100-row warm-up)`);
    for (const format of FORMATS) await exportOnce(proc, format, 100);
    const base: Record<string, Measured> = {};
    for (const format of FORMATS) {
      // Short runs are at the mercy of the machine's other work: the median time of three, their highest peak.
      const runs: Measured[] = [];
      for (let i = 0; i < BASELINE_RUNS; i++) runs.push(await exportOnce(proc, format, BASELINE_ROWS));
      base[format] = { ...runs[0]!, ms: median(runs.map((r) => r.ms)), peakMb: Math.max(...runs.map((r) => r.peakMb)) };
      say(`  ${format}: ${fmt.ms(base[format].ms)}, ${rowsPerSecond(BASELINE_ROWS, base[format].ms)}, peak RSS ${mb(base[format].peakMb)}`);
    }

    say(`[4/4] the whole history, ${HISTORY.toLocaleString('en-US')} executions, each format`);
    const rows: Row[] = [{ metric: 'idle RSS with the history loaded', value: mb(idleMb), target: '-', baseline: '-', ratio: '-', result: '-' }];
    for (const format of FORMATS) {
      const full = await exportOnce(proc, format, HISTORY);
      say(`  ${format}: ${fmt.ms(full.ms)}, ${rowsPerSecond(HISTORY, full.ms)}, peak RSS ${mb(full.peakMb)}, ${(full.bytes / 1024 / 1024).toFixed(1)} MB`);
      rows.push(...formatRows(format, base[format]!, full));
    }
    say(`\n${formatTable(rows)}`);
    say(`\nload average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}`);
  } finally {
    await proc.stop();
    await removeTempDir(dataDir);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:export failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
