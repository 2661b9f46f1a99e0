// Runs test files in lanes, each lane a pool of `node --test <file>` processes, every file in a process of its own
// (as node's runner does anyway) so that its output prints as one block when it ends and its time is its own.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TEST_ARGS = [
  '--import', 'tsx', '--test',
  // A test that hangs fails after 10 minutes instead of holding CI; a file whose tests are all done exits even
  // when something (a browser's orphaned process, say) keeps its event loop alive.
  '--test-timeout=600000', '--test-force-exit', '--test-reporter=spec',
];

// The shell's `times` reports the CPU time of every process it waited for, with their own reaped descendants
// (the test file, its services, their Chromium): the CPU a file costs, which a loaded machine does not inflate.
const TIMED = 'f=$1; shift; "$@"; s=$?; times >"$f"; exit $s';

const COUNTS = /^\S* ?(tests|pass|fail|cancelled|skipped|todo) (\d+)$/gm;
const ANSI = /\x1b\[[0-9;]*m/g;

function seconds(text) {
  const [, m, s] = /(\d+)m([\d.]+)s/.exec(text) ?? [];
  return m === undefined ? 0 : Number(m) * 60 + Number(s);
}

/** The process groups of the files running now: a signal to the runner is passed on to each whole group. */
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const pid of running) {
      try { process.kill(-pid, signal); } catch { /* ended meanwhile */ }
    }
    process.exit(1);
  });
}

/** Runs one file; resolves with its output, exit status, counts, wall and CPU seconds. */
function runJob(job, env, timesFile) {
  const started = Date.now();
  return new Promise((resolve) => {
    // A group of its own, so that a signal reaches the file's whole tree and not only the shell.
    const child = spawn('sh', ['-c', TIMED, 'sh', timesFile, job.node, ...TEST_ARGS, job.file], {
      env, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    running.add(child.pid);
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code, signal) => {
      running.delete(child.pid);
      const output = Buffer.concat(chunks).toString('utf8');
      const counts = {};
      for (const [, name, n] of output.replace(ANSI, '').matchAll(COUNTS)) counts[name] = Number(n);
      let cpu = 0;
      try {
        // Second line: user and system time of the children.
        const lines = readFileSync(timesFile, 'utf8').trim().split('\n');
        cpu = lines[1].split(/\s+/).reduce((sum, t) => sum + seconds(t), 0);
      } catch { /* no times: the shell was killed */ }
      resolve({ ...job, output, status: code ?? (signal ? 1 : 0), counts, wall: (Date.now() - started) / 1000, cpu });
    });
  });
}

/**
 * Runs every lane at once, each with its own concurrency, taking its jobs in order; `onDone` gets each result as
 * its file ends. Resolves with all results.
 */
export async function runLanes(lanes, { env, tmpDir, onDone }) {
  const results = [];
  let n = 0;
  const worker = async (lane) => {
    for (let job = lane.jobs.shift(); job; job = lane.jobs.shift()) {
      const result = await runJob({ ...job, lane: lane.name }, env, `${tmpDir}/times-${n++}`);
      results.push(result);
      onDone(result);
    }
  };
  await Promise.all(lanes.flatMap((lane) => Array.from({ length: lane.concurrency }, () => worker(lane))));
  return results;
}
