import { performance } from 'node:perf_hooks';
import { ADMIN, request, sessionCookie } from '../../test/support/service.js';
import { freePort, makeTempDir, median, removeTempDir, spawnNode, waitHealthy } from './children.js';
import { runInterleaved } from './runs-interleaved.js';
import { fmt, verdict, type Row } from './report.js';

/** The list page of the field-mapping tests (test/fixtures/pages), and a mapping of its three rows. */
const PAGE = '/field-mapping/products.html';
const EXTRACT = {
  list: 'li.product',
  fields: [
    { name: 'sku', attribute: 'data-sku' },
    { name: 'name', selector: 'a.name' },
    { name: 'link', selector: 'a.name', attribute: 'href', type: 'url' },
    { name: 'price', selector: '.price', type: 'number' },
  ],
};
/**
 * After each run: long enough for the warm context the service makes after a browser run to be ready, so that work
 * does not land in the next http run (measured at 150 ms under load 20, it did: the runs' own time doubled).
 */
const PAUSE_MS = Number(process.env.BENCH_HTTP_PAUSE_MS ?? 500);

/**
 * Browserless mode against a browser run (README "Browserless mode"): the same field mapping on the same list page,
 * one task in mode http and one in mode scrape (the browser's fast path), run one after another through
 * `POST /api/tasks/{id}/api`, interleaved run for run; medians of the call's wall time. Target: http at most a fifth.
 */
export async function httpModeRows(script: string, origin: string, runs: number, say: (line: string) => void): Promise<Row[]> {
  const dataDir = makeTempDir('taskloom-bench-http-');
  const port = await freePort();
  const proc = spawnNode(script, port, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ALLOW_PRIVATE_NETWORKS: 'true' }, 15_000);
  try {
    await waitHealthy(proc, 20);
    const base = proc.baseUrl;
    const setup = await request(base, 'POST', '/api/auth/setup', { body: ADMIN });
    const apiKey = (await request(base, 'POST', '/api/settings/api-key', { cookie: sessionCookie(setup.headers) })).body.apiKey as string;
    const taskOf = async (mode: string) => {
      const task = await request(base, 'POST', '/api/tasks', { apiKey, body: { name: `bench ${mode}`, mode, url: `${origin}${PAGE}`, actions: [], extract: EXTRACT } });
      if (task.status !== 200) throw new Error(`creating the ${mode} task failed: ${task.status} ${task.text}`);
      return task.body.id as string;
    };
    let expected: string | undefined;
    const inService = new Map<string, number[]>();
    const side = (taskId: string) => ({
      async run(): Promise<number | undefined> {
        const started = performance.now();
        const res = await request(base, 'POST', `/api/tasks/${taskId}/api`, { apiKey });
        const ms = performance.now() - started;
        const data = JSON.stringify(res.body?.result?.data);
        expected ??= data;
        if (res.status !== 200 || res.body.status !== 'success' || data !== expected || !Array.isArray(res.body.result.data) || res.body.result.data.length !== 3) {
          say(`  a run failed: ${res.status} ${res.text.slice(0, 300)}`);
          return undefined;
        }
        inService.set(taskId, [...inService.get(taskId) ?? [], res.body.durationMs as number]);
        return ms;
      },
    });
    const httpId = await taskOf('http');
    const browserId = await taskOf('scrape');
    const http = side(httpId);
    const browser = side(browserId);
    for (let i = 0; i < 3; i++) await Promise.all([http.run(), browser.run()]);
    const both = await runInterleaved(http, browser, runs, PAUSE_MS);
    const httpMs = median(both.a.times);
    const browserMs = median(both.b.times);
    const ratio = httpMs / browserMs;
    say(`  mode http median ${fmt.ms(httpMs)}, mode scrape (browser) median ${fmt.ms(browserMs)}: ${fmt.ratio(ratio)};`
      + ` machine busy ${both.busyCores.toFixed(2)} cores${both.a.failures + both.b.failures ? `, ${both.a.failures + both.b.failures} FAILED` : ''}`);
    say(`  the runs' own durationMs (started to finished, in the service): http ${fmt.ms(median(inService.get(httpId) ?? []))},`
      + ` scrape ${fmt.ms(median(inService.get(browserId) ?? []))}`);
    return [{
      metric: 'run time, mode http', value: fmt.ms(httpMs), target: '<= 0.20x browser run', baseline: `${fmt.ms(browserMs)} mode scrape`,
      ratio: fmt.ratio(ratio), result: verdict(ratio <= 0.2, both.a.failures + both.b.failures > 0),
    }];
  } finally {
    await proc.stop();
    await removeTempDir(dataDir);
  }
}
