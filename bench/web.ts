// bench:web: the dashboard's production bundle size (what the first screen loads, and every chunk), and the time
// until the task list with 1,000 tasks is interactive (loaded, and a search answered), against a baseline measured
// in the same run: the same 1,000 rows as a static HTML table (loaded, and the search box filled). The first
// screen's bytes are compared with the whole bundle before screens were split into chunks (32.1 KB gzipped, the
// figure recorded in the README then).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright';
import { detectChromium } from '../layers/browser-pool/index.js';
import { ADMIN, request, sessionCookie } from '../test/support/service.js';
import { freePort, makeTempDir, median, removeTempDir, spawnNode, waitHealthy } from './support/children.js';

const TASKS = 1000;
const RUNS = 5;
const DIST = 'web/dist';

/** The whole bundle, gzipped, before the screens were split into chunks loaded on first use. */
const UNSPLIT_GZIP_KB = 32.1;

/** JS and CSS under assets/, or only `names`; raw and gzipped bytes. */
function bundleSize(names?: string[]): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const file of names ?? fs.readdirSync(path.join(DIST, 'assets'))) {
    if (!/\.(js|css)$/.test(file)) continue;
    const bytes = fs.readFileSync(path.join(DIST, 'assets', file));
    raw += bytes.length;
    gzip += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

/** What index.html loads before anything is shown: the entry script, its preloaded chunks, the stylesheet. */
function firstScreenFiles(): string[] {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
}

const dataDir = makeTempDir('taskloom-bench-web-');
const port = await freePort();
const proc = spawnNode('dist/app/main.js', port, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
const browser = await chromium.launch({
  executablePath: detectChromium({}),
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
});
try {
  await waitHealthy(proc);
  const base = proc.baseUrl;
  const cookie = sessionCookie((await request(base, 'POST', '/api/auth/setup', { body: ADMIN })).headers);
  const actions = Array.from({ length: 6 }, (_, i) => ({ type: 'click', selector: `#step-${i}` }));
  for (let i = 0; i < TASKS; i += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, j) => request(base, 'POST', '/api/tasks', { cookie, body: {
      name: `Task ${i + j}`, description: `Collects the prices of catalogue page ${i + j}`,
      url: `https://shop.example.com/catalogue/${i + j}`, mode: 'agent', actions,
    } })));
  }
  const tasks = (await request(base, 'GET', '/api/tasks', { cookie })).body as { name: string; url: string }[];
  const staticPage = `<!doctype html><html><body><input id="task-search"><table class="tasks-table"><tbody>${
    tasks.map((t) => `<tr><th>${t.name}</th><td>${t.url}</td></tr>`).join('')}</tbody></table></body></html>`;

  const [name, value] = cookie.split('=') as [string, string];
  /** The asset files the first screen fetched (the last timed load's). */
  let fetched = new Set<string>();
  const timeDashboard = async (): Promise<number> => {
    const context = await browser.newContext();
    await context.addCookies([{ name, value, domain: '127.0.0.1', path: '/' }]);
    const page = await context.newPage();
    fetched = new Set();
    page.on('request', (req) => { const m = /\/assets\/([^/?]+)$/.exec(new URL(req.url()).pathname); if (m) fetched.add(m[1]!); });
    const started = performance.now();
    await page.goto(`${base}/`);
    // The list draws only the rows near the viewport: loaded means the table counts all tasks (aria-rowcount, the
    // header row included) and shows the first; interactive means a search then narrows it (Task 99, 990 to 999).
    await page.waitForFunction((n) => document.querySelector('.tasks-table')?.getAttribute('aria-rowcount') === String(n + 1)
      && document.querySelector('.tasks-table tbody tr[aria-rowindex="2"]') !== null, TASKS, { timeout: 30_000 });
    await page.locator('#task-search').fill('Task 99');
    await page.waitForFunction(() => document.querySelector('.tasks-table')?.getAttribute('aria-rowcount') === '12');
    const ms = performance.now() - started;
    await context.close();
    return ms;
  };
  const timeStatic = async (): Promise<number> => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route(`${base}/static-baseline`, (route) => route.fulfill({ contentType: 'text/html', body: staticPage }));
    const started = performance.now();
    await page.goto(`${base}/static-baseline`);
    await page.waitForFunction((n) => document.querySelectorAll('.tasks-table tbody tr').length === n, TASKS);
    await page.locator('#task-search').fill('Task 99');
    const ms = performance.now() - started;
    await context.close();
    return ms;
  };
  await timeDashboard();
  await timeStatic();
  const dashboard: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    dashboard.push(await timeDashboard());
    baseline.push(await timeStatic());
  }
  const size = bundleSize();
  const first = bundleSize(firstScreenFiles());
  const d = median(dashboard);
  const b = median(baseline);
  console.log(`\ntaskloom bench:web (${TASKS} tasks, median of ${RUNS})\n`);
  console.log('metric                                  | value        | target     | baseline | ratio | result');
  console.log('----------------------------------------|--------------|------------|----------|-------|-------');
  console.log(`production bundle (JS + CSS), gzipped    | ${(size.gzip / 1024).toFixed(1)} KB      | < 300 KB   | -        | -     | ${size.gzip < 300 * 1024 ? 'PASS' : 'FAIL'}`);
  const firstKb = first.gzip / 1024;
  console.log(`first screen loads (JS + CSS), gzipped   | ${firstKb.toFixed(1)} KB      | <= ${UNSPLIT_GZIP_KB} KB | ${UNSPLIT_GZIP_KB} KB  | ${(firstKb / UNSPLIT_GZIP_KB).toFixed(2)}x | ${firstKb <= UNSPLIT_GZIP_KB ? 'PASS' : 'FAIL'}`);
  console.log(`task list with ${TASKS} tasks interactive | ${d.toFixed(0)} ms       | < 1000 ms  | ${b.toFixed(0)} ms   | ${(d / b).toFixed(2)}x | ${d < 1000 ? 'PASS' : 'FAIL'}`);
  console.log(`(bundle raw ${(size.raw / 1024).toFixed(1)} KB; baseline: the same rows as a static HTML table in the same browser)`);
  // The studio (recorder, live view) is fetched when opened, never by the first screen; the trace viewer is no
  // part of the bundle at all (the service serves Playwright's own at /trace-viewer/).
  const all = fs.readdirSync(path.join(DIST, 'assets'));
  const studio = all.filter((file) => /^(studio-screen|live-frame|live-view|recording-handoff)-/.test(file));
  const early = studio.filter((file) => fetched.has(file));
  console.log(`first screen fetched ${fetched.size} of ${all.length} asset files: ${[...fetched].sort().join(', ')}`);
  console.log(`studio chunks (${studio.length}, ${(bundleSize(studio).gzip / 1024).toFixed(1)} KB gzipped) fetched by the first screen: ${early.length === 0 ? 'none (PASS)' : `${early.join(', ')} (FAIL)`}`);
} finally {
  await browser.close();
  await proc.stop();
  await removeTempDir(dataDir);
}
