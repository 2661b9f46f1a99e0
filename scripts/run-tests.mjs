// Runs every test/**/*.test.ts with node's test runner (Node 20 has no glob support for --test).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'fixtures' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const filter = process.argv.slice(2);
const files = find('test').sort().filter((f) => filter.length === 0 || filter.some((p) => f.includes(p)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
