/**
 * `node --import tsx bench/runs-outbound.ts`: what the browser's forward proxy costs a run. The same tasks run on
 * an in-process service twice: with ALLOW_PRIVATE_NETWORKS=true (the browser connects by itself) and with it false
 * (every connection goes through the forward proxy in the service's process; the bench's pages on 127.0.0.1 are let
 * through by the guard's allowAddress, as an allowed public host would be). Per mode: the six-action bench task
 * one run after another (median wall time, the service process's CPU per run), 20 of them 4 at a time, and a
 * heavier page (40 images of 100 KB) one after another. Reports the figures side by side; no target, no verdict.
 * BENCH_SEQUENTIAL (default 30) sets the sequential count; BENCH_ONLY=direct measures the first mode alone (e.g. on an
 * older checkout, to see what the fast path costs).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startPagesServer } from '../test/support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../test/support/service.js';
import { mean, median } from './support/children.js';
import { benchTask, EXPECTED_DATA } from './support/runs-task.js';

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 30);
const BURST = 20;
const CONCURRENCY = 4;
const IMAGES = 40;
const IMAGE_BYTES = 100 * 1024;
const say = (line: string) => process.stdout.write(`${line}\n`);

interface Figures {
  sequentialMedianMs: number;
  sequentialMeanMs: number;
  cpuPerRunMs: number;
  burstWallMs: number;
  heavyMedianMs: number;
  heavyCpuPerRunMs: number;
  failures: number;
}

/** A page of IMAGES distinct images (no cache), to push bytes through the proxy. */
async function startHeavySite(): Promise<{ origin: string; close(): Promise<void> }> {
  const image = Buffer.alloc(IMAGE_BYTES, 7);
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/img/')) return void res.writeHead(200, { 'content-type': 'image/x-bench', 'cache-control': 'no-store' }).end(image);
    const tags = Array.from({ length: IMAGES }, (_, i) => `<img src="/img/${i}?${Math.random()}">`).join('');
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(`<title>heavy</title>${tags}`);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function measure(allowPrivate: boolean, pagesOrigin: string, heavyOrigin: string): Promise<Figures> {
  const svc: TestService = await startService(
    { ALLOW_PRIVATE_NETWORKS: String(allowPrivate), MAX_CONCURRENT_RUNS: String(CONCURRENCY), LOG_LEVEL: 'silent' },
    undefined,
    { outbound: { allowAddress: (ip) => ip === '127.0.0.1' } },
  );
  try {
    const { apiKey } = await setupAdmin(svc);
    const create = async (task: Record<string, unknown>) => (await svc.request('POST', '/api/tasks', { apiKey, body: task })).body.id as string;
    const light = await create(benchTask(pagesOrigin));
    const heavy = await create({ name: 'bench: heavy page', mode: 'agent', url: `${heavyOrigin}/`, actions: [],
      extractionScript: 'return [...document.images].filter((i) => i.complete).length' });
    let failures = 0;
    const runOnce = async (id: string, expected: unknown) => {
      const started = performance.now();
      const res = await svc.request('POST', `/api/tasks/${id}/api`, { apiKey });
      const ms = performance.now() - started;
      if (res.body?.status !== 'success' || JSON.stringify(res.body.result.data) !== JSON.stringify(expected)) {
        failures++;
        say(`  a run failed: ${res.text.slice(0, 200)}`);
      }
      return ms;
    };
    const sequence = async (id: string, expected: unknown, count: number) => {
      const cpu = process.cpuUsage();
      const times: number[] = [];
      for (let i = 0; i < count; i++) times.push(await runOnce(id, expected));
      const used = process.cpuUsage(cpu);
      return { times, cpuPerRunMs: (used.user + used.system) / 1000 / count };
    };
    for (let i = 0; i < 3; i++) await runOnce(light, EXPECTED_DATA); // warm-up: the browser starts
    const lightRuns = await sequence(light, EXPECTED_DATA, SEQUENTIAL);
    const burstStarted = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < BURST) await runOnce(light, EXPECTED_DATA);
    }));
    const burstWallMs = performance.now() - burstStarted;
    await runOnce(heavy, IMAGES);
    const heavyRuns = await sequence(heavy, IMAGES, Math.max(5, Math.round(SEQUENTIAL / 3)));
    return {
      sequentialMedianMs: median(lightRuns.times), sequentialMeanMs: mean(lightRuns.times), cpuPerRunMs: lightRuns.cpuPerRunMs,
      burstWallMs, heavyMedianMs: median(heavyRuns.times), heavyCpuPerRunMs: heavyRuns.cpuPerRunMs, failures,
    };
  } finally {
    await svc.close();
  }
}

const pages = await startPagesServer();
const heavy = await startHeavySite();
try {
  say(`bench: the forward proxy's cost per run (${SEQUENTIAL} sequential, ${BURST} at ${CONCURRENCY} at a time, heavy page ${IMAGES} x ${IMAGE_BYTES / 1024} KB)`);
  const direct = await measure(true, pages.origin, heavy.origin);
  const proxied = process.env.BENCH_ONLY === 'direct' ? direct : await measure(false, pages.origin, heavy.origin);
  const row = (name: string, key: keyof Figures) => {
    const a = direct[key];
    const b = proxied[key];
    say(`${name.padEnd(36)} ${a.toFixed(1).padStart(9)} ${b.toFixed(1).padStart(9)} ${(b / a).toFixed(2).padStart(7)}x`);
  };
  say(`${'metric'.padEnd(36)} ${'direct'.padStart(9)} ${'proxied'.padStart(9)} ${'ratio'.padStart(8)}`);
  row('six actions: median wall ms', 'sequentialMedianMs');
  row('six actions: mean wall ms', 'sequentialMeanMs');
  row('six actions: service CPU ms per run', 'cpuPerRunMs');
  row(`${BURST} runs, ${CONCURRENCY} at a time: wall ms`, 'burstWallMs');
  row('heavy page: median wall ms', 'heavyMedianMs');
  row('heavy page: service CPU ms per run', 'heavyCpuPerRunMs');
  say(`failed runs: direct ${direct.failures}, proxied ${proxied.failures}`);
} finally {
  await heavy.close();
  await pages.close();
}
