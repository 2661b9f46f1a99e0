/**
 * `npm run bench:storage`: the embedded JSON store and PostgreSQL doing the same work through the storage
 * contract, in this process as the service uses them: 100,000 executions inserted, the history page of 50
 * (plain, filtered by status, walked by offset), the task list, and 200 concurrent writers. The JSON store is
 * the baseline; the target is a PostgreSQL history page under 10 ms (median) at 100,000 records.
 * BENCH_EXECUTIONS, BENCH_SAMPLES and BENCH_DATABASE_URL change the size and the database.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fmt, formatTable, verdict, type Row } from './support/report.js';
import { BENCH_DATABASE_URL, openBackend, type BackendName } from './support/storage-backends.js';
import { runWorkload, type Timing, type WorkloadFigures, type WorkloadSize } from './support/storage-workload.js';

const SIZE: WorkloadSize = {
  executions: Number(process.env.BENCH_EXECUTIONS ?? 100_000),
  tasks: 1_000,
  samples: Number(process.env.BENCH_SAMPLES ?? 200),
  writers: 200,
  runsPerWriter: 10,
};
const PAGE_TARGET_MS = 10;

const say = (line: string) => process.stdout.write(`${line}\n`);
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' / ');
const count = (n: number) => n.toLocaleString('en-US');

async function measure(name: BackendName): Promise<WorkloadFigures> {
  const backend = await openBackend(name);
  try {
    say(`\n[${name}] ${count(SIZE.executions)} executions, ${SIZE.samples} timed calls per query, ${count(SIZE.tasks)} tasks, `
      + `${SIZE.writers} writers x ${SIZE.runsPerWriter} runs`);
    const started = performance.now();
    const figures = await runWorkload(backend.storage, SIZE, say);
    say(`  inserted ${count(figures.insert.count)} in ${(figures.insert.ms / 1000).toFixed(1)} s; `
      + `history page median ${fmt.ms(figures.historyPage.medianMs)}, p99 ${fmt.ms(figures.historyPage.p99Ms)}; `
      + `${Math.round(figures.writers.perSec)} writes/s with ${figures.writers.writers} writers; ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
    return figures;
  } finally {
    await backend.dispose();
  }
}

function timingRows(label: string, pg: Timing, json: Timing, target?: number): Row[] {
  return [
    {
      metric: `${label}, median`, value: fmt.ms(pg.medianMs), target: target === undefined ? '-' : `< ${target} ms`,
      baseline: fmt.ms(json.medianMs), ratio: fmt.ratio(pg.medianMs / json.medianMs),
      result: verdict(target === undefined ? undefined : pg.medianMs < target),
    },
    { metric: `${label}, p99`, value: fmt.ms(pg.p99Ms), target: '-', baseline: fmt.ms(json.p99Ms), ratio: fmt.ratio(pg.p99Ms / json.p99Ms), result: '-' },
  ];
}

function rows(pg: WorkloadFigures, json: WorkloadFigures): Row[] {
  const history = `history page of 50 at ${count(SIZE.executions)}`;
  const rate = (f: WorkloadFigures) => (f.insert.count / f.insert.ms) * 1000;
  return [
    {
      metric: `insert ${count(SIZE.executions)} executions (500 at a time)`,
      value: `${(pg.insert.ms / 1000).toFixed(1)} s (${count(Math.round(rate(pg)))}/s)`, target: '-',
      baseline: `${(json.insert.ms / 1000).toFixed(1)} s (${count(Math.round(rate(json)))}/s)`,
      ratio: fmt.ratio(pg.insert.ms / json.insert.ms), result: '-',
    },
    ...timingRows(history, pg.historyPage, json.historyPage, PAGE_TARGET_MS),
    ...timingRows(`${history}, status=error`, pg.statusPage, json.statusPage, PAGE_TARGET_MS),
    ...timingRows(`${history}, offsets 50 to ${count(SIZE.samples * 50)}`, pg.offsetPages, json.offsetPages, PAGE_TARGET_MS),
    ...timingRows(`task list, ${count(SIZE.tasks)} tasks`, pg.taskList, json.taskList),
    {
      metric: `${SIZE.writers} concurrent writers (insert + 2 updates per run)`,
      value: `${count(Math.round(pg.writers.perSec))} writes/s`, target: '-',
      baseline: `${count(Math.round(json.writers.perSec))} writes/s`, ratio: fmt.ratio(pg.writers.perSec / json.writers.perSec), result: '-',
    },
  ];
}

async function main(): Promise<void> {
  const began = performance.now();
  const database = new URL(BENCH_DATABASE_URL);
  database.password = database.password ? '***' : '';
  say(`taskloom bench:storage: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), `
    + `load average ${loadAverage()}; PostgreSQL at ${database.href} (a fresh schema, dropped afterwards)`);
  const json = await measure('json');
  const pg = await measure('postgres');
  say(`\nResults (value: PostgreSQL; baseline: the JSON store; ratio = PostgreSQL / JSON; `
    + `${((performance.now() - began) / 1000).toFixed(0)} s in all; load average now ${loadAverage()})\n`);
  say(formatTable(rows(pg, json)));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  },
);
