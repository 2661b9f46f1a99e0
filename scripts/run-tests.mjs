// Runs every test/**/*.test.ts with node's test runner (Node 20 has no glob support for --test), then the API
// and storage tests again under Node.js 24 when it is there (see node24.mjs), so both tested versions are held.
// Files run in two lanes at once (see test-lanes.mjs): one for those that keep a core busy, one for those that
// mostly wait; each file's output prints as one block when it ends, then a summary of the whole run.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findNode24 } from './node24.mjs';
import { planLanes, NODE24_FILES, NODE24_LEFT_OUT } from './test-lanes.mjs';
import { runLanes } from './test-pool.mjs';
import { findTestFiles, printResult, printSummary, timesTable } from './test-report.mjs';

const filter = process.argv.slice(2);
const files = findTestFiles('test').filter((f) => filter.length === 0 || filter.some((p) => f.includes(p)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

const jobs = files.map((file) => ({ file, node: process.execPath, version: process.versions.node }));
const again = files.filter((file) => NODE24_FILES.some((pattern) => pattern.test(file)) && !NODE24_LEFT_OUT.test(file));
if (filter.length > 0 && process.env.TEST_NODE24 !== '1') {
  // A subset run (node scripts/run-tests.mjs <part>) stays quick; TEST_NODE24=1 asks for the second pass too.
} else if (process.versions.node.startsWith('24.')) {
  console.log('# Node.js 24 pass: skipped, this run already is Node.js 24');
} else if (again.length > 0) {
  const node24 = findNode24();
  if (node24.node) {
    console.log(`# Node.js 24 pass (${node24.version}): ${again.length} API and storage test files, alongside the others`);
    jobs.push(...again.map((file) => ({ file, node: node24.node, version: node24.version.slice(1) })));
  } else {
    console.log(`# Node.js 24 pass: skipped, ${node24.reason}`);
  }
}

const lanes = planLanes(jobs);
console.log(`# ${jobs.length} test files: ${lanes.map((l) => `${l.name} lane ${l.jobs.length} files, ${l.concurrency} at a time`).join('; ')}\n`);
const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'taskloom-run-tests-'));
process.on('exit', () => rmSync(tmpDir, { recursive: true, force: true }));
const started = Date.now();
const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' };
const results = await runLanes(lanes, {
  env,
  tmpDir,
  onDone: printResult,
});
// A file that failed is run once more, alone (nothing else loading the machine), when few failed: a timing-bound
// test that lost to a loaded machine passes then and is reported as flaky with what failed the first time; one
// that fails again fails the run, as does any failure when more than TEST_RETRY_MAX files failed (a real break).
const retryMax = Number(process.env.TEST_RETRY_MAX ?? 3);
const failedFirst = results.filter((r) => r.status !== 0);
const retried = [];
if (failedFirst.length > 0 && failedFirst.length <= retryMax) {
  console.log(`\n# running ${failedFirst.length} failed file(s) again, one at a time`);
  for (const first of failedFirst) {
    const [second] = await runLanes([{ name: 'retry', concurrency: 1, jobs: [{ file: first.file, node: first.node, version: first.version }] }], {
      env, tmpDir, onDone: printResult,
    });
    retried.push({ first, second });
    results[results.indexOf(first)] = second;
  }
}
printSummary(results, (Date.now() - started) / 1000, retried);
// TEST_TIMES=<file> writes each file's wall and CPU seconds (what test-lanes.mjs plans with) into that JSON table.
const timesFile = process.env.TEST_TIMES;
if (timesFile) writeFileSync(timesFile, timesTable(results, existsSync(timesFile) ? JSON.parse(readFileSync(timesFile, 'utf8')) : {}));
process.exit(results.some((r) => r.status !== 0) ? 1 : 0);
