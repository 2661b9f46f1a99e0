// What the test runner prints: each file's block as it ends, then the whole run's counts, failures and slowest
// files; and the per-file time table (TEST_TIMES) the lanes are planned from.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** test/**\/*.test.ts, sorted, with forward slashes. */
export function findTestFiles(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = path.posix.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'fixtures' ? [] : findTestFiles(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const label = (r) => `${r.file}${r.version.startsWith('20.') ? '' : ` (Node.js ${r.version})`}`;
const secs = (s) => `${s.toFixed(1)} s`;

export function printResult(r) {
  const mark = r.status === 0 ? '✔' : '✖';
  process.stdout.write(`\n${mark} ${label(r)}: ${secs(r.wall)}, CPU ${secs(r.cpu)} [${r.lane} lane]\n${r.output.trimEnd()}\n`);
}

/** The names of the tests a file's output marks failed (node's spec reporter: `✖ name (time)`), at most `max`. */
function failedTests(output, max = 8) {
  const names = [...output.replace(/\x1b\[[0-9;]*m/g, '').matchAll(/^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/gm)].map((m) => m[1]);
  return [...new Set(names)].filter((n) => n !== 'failing tests:').slice(0, max);
}

export function printSummary(results, wall, retried = []) {
  const total = {};
  for (const r of results) for (const [name, n] of Object.entries(r.counts)) total[name] = (total[name] ?? 0) + n;
  const failed = results.filter((r) => r.status !== 0);
  const cpu = results.reduce((sum, r) => sum + r.cpu, 0);
  console.log(`\n# ${results.length} files in ${secs(wall)} (${(wall / 60).toFixed(1)} min), CPU ${secs(cpu)}`);
  console.log(`# ${['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'].map((k) => `${k} ${total[k] ?? 0}`).join(', ')}`);
  console.log('# slowest files:');
  for (const r of [...results].sort((a, b) => b.wall - a.wall).slice(0, 10)) {
    console.log(`#   ${secs(r.wall).padStart(8)}  CPU ${secs(r.cpu).padStart(7)}  ${label(r)}`);
  }
  for (const { first, second } of retried) {
    console.log(`# ${second.status === 0 ? 'flaky (failed, then passed alone)' : 'failed twice'}: ${label(first)}`);
    for (const name of failedTests(first.output)) console.log(`#     first try: ✖ ${name}`);
  }
  if (failed.length > 0) {
    console.log(`# ${failed.length} files failed:`);
    for (const r of failed) {
      console.log(`#   ${label(r)} (exit ${r.status})`);
      for (const name of failedTests(r.output)) console.log(`#     ✖ ${name}`);
    }
  }
}

/** `{ "<file>" | "node24 <file>": { wall, cpu } }` sorted by file: `previous` with this run's files replaced. */
export function timesTable(results, previous = {}) {
  const round = (s) => Math.round(s * 10) / 10;
  const table = { ...previous };
  for (const r of results) table[`${r.version.startsWith('20.') ? '' : 'node24 '}${r.file}`] = { wall: round(r.wall), cpu: round(r.cpu) };
  const rows = Object.entries(table).sort(([a], [b]) => a.localeCompare(b));
  return `${rows.reduce((text, [file, t], i) => `${text}${i ? ',\n' : ''} ${JSON.stringify(file)}: ${JSON.stringify(t)}`, '{\n')}\n}\n`;
}
