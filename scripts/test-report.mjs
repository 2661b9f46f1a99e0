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

export function printSummary(results, wall) {
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
  if (failed.length > 0) {
    console.log(`# ${failed.length} files failed:`);
    for (const r of failed) console.log(`#   ${label(r)} (exit ${r.status})`);
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
