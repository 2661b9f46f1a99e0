// Which lane each test file runs in, and in what order. The files that mostly wait (WAITING) run in the waiting
// lane, several at once, beside the main lane (one file per core). Each lane takes its longest files first (by
// test-times.json, written by `TEST_TIMES=scripts/test-times.json npm test`), so that no long file starts last.
// The table's wall times depend on the machine's load, so only their order matters.
import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * The API and storage tests: what the second Node.js version must pass. Left out, to keep the suite's time: the
 * files that are mostly Chromium at work (the browser, the runner, the inspector, the outbound rule in the browser)
 * or mostly waiting (a real-time schedule, kill -9 rounds, login slow-downs, a silent peer).
 */
export const NODE24_FILES = [/^test\/plugins\//, /^test\/providers\/storage\//, /^test\/kernel\//, /^test\/layers\//, /^test\/app\//];
export const NODE24_LEFT_OUT = /(runs-actions|runner-program|headful|inspector|browser-|cross-site|runs-outbound|runs-memory|runs-error|runs-restart|runs-storage-outage|runs-page-capture|schedules-realtime|import-crash|login-limits|silent-peer|ai-generate-selector|session-run|warm-contexts|healing-mutations)/;

/**
 * The files that mostly wait (measured: their CPU time is a small share of their run time, see test-times.json):
 * real-time schedules, service restarts and kill -9 rounds, database and peer outages, lease expiries, login
 * slow-downs. They run in the waiting lane, beside the files that keep a core busy.
 */
const WAITING = /(schedules-engine|schedules-realtime|kill-9|multi-instance|e2e\/queue-|postgres-health|health-session-outage|cli\/migrate|pg-boss|postgres-instances|postgres-timeouts|mongodb-offline|silent-peer|lease-loss|storage-outage|plugins\/instances|webhooks-instances|schedules-instances|login-limits|runs-restart)/;
/** What an unmeasured file is taken to last. */
const UNMEASURED = { wall: 10, cpu: 5 };

function loadTimes() {
  try {
    return JSON.parse(readFileSync(new URL('./test-times.json', import.meta.url), 'utf8'));
  } catch {
    return {};
  }
}

/**
 * TEST_LANES=<main>,<waiting>: how many files each lane runs at once. By default there is no waiting lane (its
 * files join the main lane): on a 2-core machine, 3 of them beside 2 busy files starved the instances they start
 * (a lease given up for storage not reached in time, 4 of 10 waiting files failing at load 20); TEST_LANES=2,1 or
 * more on a machine with cores to spare.
 */
function concurrency(env) {
  const [main, waiting] = (env.TEST_LANES ?? '').split(',').map(Number);
  return { main: main || os.availableParallelism(), waiting: waiting || 0 };
}

export function planLanes(jobs, env = process.env) {
  const times = loadTimes();
  const timeOf = (job) => times[`${job.version.startsWith('20.') ? '' : 'node24 '}${job.file}`] ?? times[job.file] ?? UNMEASURED;
  const waits = (job) => WAITING.test(job.file);
  // A file of the main lane lasts as long as its CPU time, which a loaded machine does not inflate; a waiting
  // file as long as its waits.
  const byCpu = (a, b) => timeOf(b).cpu - timeOf(a).cpu;
  const byWall = (a, b) => timeOf(b).wall - timeOf(a).wall;
  const n = concurrency(env);
  // One lane: the longest files first (by their measured wall time), so that none starts last; the Node.js 24 pass
  // after the first, so that no file runs twice at the same time.
  const first = (job) => job.version.startsWith('20.');
  if (n.waiting === 0) {
    return [{ name: 'main', concurrency: n.main, jobs: [...jobs.filter(first).sort(byWall), ...jobs.filter((j) => !first(j)).sort(byWall)] }];
  }
  return [
    { name: 'main', concurrency: n.main, jobs: jobs.filter((j) => !waits(j)).sort(byCpu) },
    { name: 'waiting', concurrency: n.waiting, jobs: jobs.filter(waits).sort(byWall) },
  ].filter((lane) => lane.jobs.length > 0);
}
