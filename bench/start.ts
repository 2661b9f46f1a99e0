/**
 * `npm run bench:start`: how long a restart takes to the first healthy answer, each figure the median of
 * interleaved runs next to a baseline measured in the same run:
 * - `npm start` on a built tree (target < 3 s), against `node dist/app/main.js`, which it ends up running;
 * - the built service, `node dist/app/main.js` (target < 600 ms), against a bare Fastify 5 server;
 * - the CPU time the service spent until healthy (all its threads), which other load on the machine skews less
 *   than the wall clock, against the bare server's;
 * - the service's first answer with a response schema right after healthy (`GET /api/auth/check-setup`), which
 *   pays for what the health answer leaves to first use (the response serializer), against a later one;
 * - scripts/ensure-built.mjs finding nothing to do, against `node -e ''`.
 * Each kind of start keeps its DATA_DIR from run to run (a restart, not a first start). Reports; never fails on a
 * target. A run in which `npm start` rebuilt (sources edited meanwhile) is left out and counted.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort, makeTempDir, median, spawnNode, waitHealthy, type NodeChild } from './support/children.js';
import { fmt, formatTable, verdict, type Row } from './support/report.js';

const RUNS = Number(process.env.BENCH_STARTS ?? 7);
const MAIN = 'dist/app/main.js';
const BASELINE = 'bench/support/baseline-server.mjs';
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const POLL_MS = 10;

/** npm start process groups still running, stopped however the bench ends. */
const groups = new Set<number>();
process.once('exit', () => { for (const pid of groups) { try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } } });

const say = (line: string) => process.stdout.write(`${line}\n`);
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' / ');

/** CPU milliseconds (user + system, every thread) a live process has used, from /proc (Linux). */
function cpuMs(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

interface Start { ms: number; cpuMs?: number; rebuilt?: boolean; firstAnswerMs?: number; laterAnswerMs?: number }

/** Milliseconds one GET takes to its whole answer; throws unless it is 200. */
async function timeGet(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return performance.now() - started;
}

/** Spawns a node script, times it to its first healthy answer (then, for the service, its first schema'd answer), stops it. */
async function timeNode(script: string, env: Record<string, string>, firstAnswer = false): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const proc = spawnNode(script, port, { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL, ...env });
  try {
    await waitHealthy(proc, POLL_MS);
    const ms = performance.now() - started;
    const start: Start = { ms, cpuMs: cpuMs(proc.child.pid!) };
    if (firstAnswer) {
      start.firstAnswerMs = await timeGet(`${proc.baseUrl}/api/auth/check-setup`);
      start.laterAnswerMs = await timeGet(`${proc.baseUrl}/api/auth/check-setup`);
    }
    return start;
  } finally {
    await proc.stop();
  }
}

/** `npm start` in its own process group (npm, the shell, ensure-built, the service), timed to healthy. */
async function timeNpmStart(dataDir: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  groups.add(child.pid!);
  const exited = new Promise<void>((resolve) => child.once('exit', () => { groups.delete(child.pid!); resolve(); }));
  const group = (signal: NodeJS.Signals) => { try { process.kill(-child.pid!, signal); } catch { /* gone */ } };
  const proc: NodeChild = {
    child, baseUrl: `http://127.0.0.1:${port}`, tail: () => output.slice(-8_192),
    async stop() {
      group('SIGTERM');
      const timer = setTimeout(() => group('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
  try {
    await waitHealthy(proc, POLL_MS, 600_000);
    return { ms: performance.now() - started, rebuilt: /taskloom: building/.test(output) };
  } finally {
    await proc.stop();
  }
}

/** Milliseconds `node <args>` took, or undefined when it exited non-zero. */
function timeSync(args: string[]): number | undefined {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
  return result.status === 0 ? performance.now() - started : undefined;
}

const values = (starts: Start[]) => starts.map((s) => s.ms);
const cpus = (starts: Start[]) => starts.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs]));

async function main(): Promise<void> {
  say(`taskloom bench:start: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average ${loadAverage()}`);
  say('\n[1/3] building what is out of date (scripts/ensure-built.mjs)');
  if (spawnSync(process.execPath, ['scripts/ensure-built.mjs'], { stdio: 'inherit' }).status !== 0) throw new Error('the build failed');

  const work = makeTempDir('taskloom-bench-start-');
  const bodyFile = path.join(work, 'tasks.json');
  fs.writeFileSync(bodyFile, '[]');
  const dirs = { service: path.join(work, 'service'), npm: path.join(work, 'npm-start') };

  say(`\n[2/3] one start of each to warm the file cache and create the data directories, then ${RUNS} interleaved runs`);
  const startBare = async () => {
    const port = await freePort();
    const started = performance.now();
    const proc = spawnNode(BASELINE, port, { BASELINE_BODY_FILE: bodyFile, BASELINE_PORT: String(port) });
    try {
      await waitHealthy(proc, POLL_MS);
      return { ms: performance.now() - started, cpuMs: cpuMs(proc.child.pid!) };
    } finally {
      await proc.stop();
    }
  };
  await startBare();
  await timeNode(MAIN, { DATA_DIR: dirs.service });
  await timeNpmStart(dirs.npm);

  const runs = { bare: [] as Start[], service: [] as Start[], npm: [] as Start[], ensure: [] as number[], node: [] as number[] };
  let rebuilt = 0;
  for (let i = 0; i < RUNS; i++) {
    runs.bare.push(await startBare());
    runs.service.push(await timeNode(MAIN, { DATA_DIR: dirs.service }, true));
    const npm = await timeNpmStart(dirs.npm);
    if (npm.rebuilt) rebuilt++;
    else runs.npm.push(npm);
    // --check does what npm start's check does, but never builds: a tree edited meanwhile is left out.
    const ensure = timeSync(['scripts/ensure-built.mjs', '--check']);
    if (ensure !== undefined) runs.ensure.push(ensure);
    runs.node.push(timeSync(['-e', ''])!);
    say(`  run ${i + 1}: bare Fastify ${fmt.ms(runs.bare.at(-1)!.ms)}, service ${fmt.ms(runs.service.at(-1)!.ms)}, `
      + `npm start ${npm.rebuilt ? `${fmt.ms(npm.ms)} (rebuilt: left out)` : fmt.ms(npm.ms)}, `
      + `ensure-built ${ensure === undefined ? 'out of date (left out)' : fmt.ms(ensure)}`);
  }
  if (runs.npm.length === 0) throw new Error('every npm start rebuilt: the sources kept changing');

  const npmStart = median(values(runs.npm));
  const service = median(values(runs.service));
  const bareStart = median(values(runs.bare));
  const serviceCpu = cpus(runs.service);
  const bareCpu = cpus(runs.bare);
  const ensure = runs.ensure.length > 0 ? median(runs.ensure) : NaN;
  const node = median(runs.node);
  const rows: Row[] = [
    {
      metric: `npm start, built tree, to healthy (median of ${runs.npm.length})`, value: fmt.ms(npmStart), target: '< 3000 ms',
      baseline: fmt.ms(service), ratio: fmt.ratio(npmStart / service), result: verdict(npmStart < 3000),
    },
    {
      metric: `node ${MAIN} to healthy (median of ${RUNS})`, value: fmt.ms(service), target: '< 600 ms',
      baseline: fmt.ms(bareStart), ratio: fmt.ratio(service / bareStart), result: verdict(service < 600),
    },
  ];
  if (serviceCpu.length > 0 && bareCpu.length > 0) {
    rows.push({
      metric: 'CPU time until healthy, all threads', value: fmt.ms(median(serviceCpu)), target: '-',
      baseline: fmt.ms(median(bareCpu)), ratio: fmt.ratio(median(serviceCpu) / median(bareCpu)), result: '-',
    });
  }
  const firstAnswers = runs.service.map((s) => s.firstAnswerMs!);
  const laterAnswers = runs.service.map((s) => s.laterAnswerMs!);
  rows.push({
    metric: 'service: first schema\'d answer after healthy', value: fmt.ms(median(firstAnswers)), target: '-',
    baseline: fmt.ms(median(laterAnswers)), ratio: fmt.ratio(median(firstAnswers) / median(laterAnswers)), result: '-',
  });
  rows.push({
    metric: 'ensure-built --check, nothing to do', value: fmt.ms(ensure), target: '-',
    baseline: fmt.ms(node), ratio: fmt.ratio(ensure / node), result: '-',
  });
  say(`\n[3/3] results (baselines: the service itself for npm start, a bare Fastify 5 server for the service, the second answer for the first schema'd one, node -e '' for ensure-built;`
    + ` ratio = measured / baseline; load average now ${loadAverage()}${rebuilt ? `; ${rebuilt} npm start run(s) rebuilt and were left out` : ''})\n`);
  say(formatTable(rows));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  },
);
