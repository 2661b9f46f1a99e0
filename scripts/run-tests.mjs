// Runs every test/**/*.test.ts with node's test runner (Node 20 has no glob support for --test), then the API
// and storage tests again under Node.js 24 when it is there (see node24.mjs), so both tested versions are held.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { findNode24 } from './node24.mjs';

/**
 * The API and storage tests: what the second Node.js version must pass. Left out, to keep the suite's time: the
 * files that are mostly Chromium at work (the browser, the runner, the inspector, the outbound rule in the browser)
 * or mostly waiting (a real-time schedule, kill -9 rounds, login slow-downs, a silent peer).
 */
const NODE24_FILES = [/^test\/plugins\//, /^test\/providers\/storage\//, /^test\/kernel\//, /^test\/layers\//, /^test\/app\//];
const NODE24_LEFT_OUT = /(runs-actions|runner-program|headful|inspector|browser-|cross-site|runs-outbound|runs-memory|runs-error|runs-restart|runs-storage-outage|runs-page-capture|schedules-realtime|import-crash|login-limits|silent-peer|ai-generate-selector|session-run|warm-contexts)/;

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'fixtures' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

function runFiles(node, files) {
  const result = spawnSync(
    node,
    // A test that hangs fails after 10 minutes instead of holding CI; a file whose tests are all done exits even
    // when something (a browser's orphaned process, say) keeps its event loop alive.
    ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=600000', '--test-force-exit', '--test-reporter=spec', ...files],
    { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
  );
  return result.status ?? 1;
}

const filter = process.argv.slice(2);
const files = find('test').sort().filter((f) => filter.length === 0 || filter.some((p) => f.includes(p)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const status = runFiles(process.execPath, files);

const again = files.filter((f) => {
  const file = f.split(path.sep).join('/');
  return NODE24_FILES.some((pattern) => pattern.test(file)) && !NODE24_LEFT_OUT.test(file);
});
if (filter.length > 0 && process.env.TEST_NODE24 !== '1') {
  // A subset run (node scripts/run-tests.mjs <part>) stays quick; TEST_NODE24=1 asks for the second pass too.
} else if (process.versions.node.startsWith('24.')) {
  console.log('\n# Node.js 24 pass: skipped, this run already is Node.js 24');
} else if (again.length > 0) {
  const node24 = findNode24();
  if (node24.node) {
    console.log(`\n# Node.js 24 pass (${node24.version}): ${again.length} API and storage test files`);
    const status24 = runFiles(node24.node, again);
    process.exit(status || status24);
  }
  console.log(`\n# Node.js 24 pass: skipped, ${node24.reason}`);
}
process.exit(status);
