// bench:live-view: what watching a run costs it. The same task (a page that repaints all the time, at 1280x720)
// runs with and without a viewer of its live view, interleaved one for one so both see the same machine; the
// figure is the ratio of the median run times (target at most 1.10x), and the frames per second the viewer got
// (target at least 5). The viewer is a WebSocket client in this process that takes every frame as it comes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { startPagesServer } from '../testing/browser/pages-server.js';
import { ADMIN, request, sessionCookie } from '../test/support/service.js';
import { freePort, makeTempDir, median, removeTempDir, spawnNode, waitHealthy } from './support/children.js';
import { fmt, formatTable, verdict } from './support/report.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bench</title>
<style>#box{width:120px;height:120px;background:#36c;position:absolute;top:200px}</style></head><body>
<input id="name"> <button id="greet" onclick="document.querySelector('#out').textContent='Hi '+document.querySelector('#name').value">Greet</button>
<span id="out"></span><div id="box"></div>
<script>const box=document.querySelector('#box');(function step(t){box.style.left=(20+(t/4)%900)+'px';requestAnimationFrame(step)})(0)</script>
</body></html>`;

const pagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskloom-bench-live-pages-'));
fs.writeFileSync(path.join(pagesDir, 'bench-live.html'), PAGE);
const pages = await startPagesServer({ extraDirs: [pagesDir] });
const dataDir = makeTempDir('taskloom-bench-live-');
const port = await freePort();
const proc = spawnNode('dist/app/main.js', port, {
  PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ALLOW_PRIVATE_NETWORKS: 'true', MAX_CONCURRENT_RUNS: '1',
});

interface Watch { frames: number; firstAt?: number; lastAt?: number }

/** Watches the run's live view until it ends: counts frames and when they came. */
function watch(base: string, cookie: string, executionId: string): Promise<Watch> {
  const seen: Watch = { frames: 0 };
  const ws = new WebSocket(`${base.replace('http:', 'ws:')}/api/executions/${executionId}/live`, { headers: { cookie } });
  ws.on('message', (_data, isBinary) => {
    if (!isBinary) return;
    seen.frames++;
    seen.lastAt = performance.now();
    seen.firstAt ??= seen.lastAt;
  });
  return new Promise((resolve, reject) => {
    ws.on('error', reject);
    ws.on('close', () => resolve(seen));
  });
}

try {
  await waitHealthy(proc);
  const base = proc.baseUrl;
  const cookie = sessionCookie((await request(base, 'POST', '/api/auth/setup', { body: ADMIN })).headers);
  const task = await request(base, 'POST', '/api/tasks', { cookie, body: {
    name: 'live view bench', mode: 'agent', url: `${pages.origin}/bench-live.html`, viewport: { width: 1280, height: 720 },
    actions: [
      { type: 'type', selector: '#name', value: 'Ada Lovelace' }, { type: 'click', selector: '#greet' },
      { type: 'wait_selector', selector: '#out' }, { type: 'wait', value: '1000' }, { type: 'hover', selector: '#greet' },
      { type: 'javascript', value: 'let n = 0; for (let i = 0; i < 2e6; i++) n += i; return n' },
      { type: 'scroll', value: '200' }, { type: 'wait', value: '1000' }, { type: 'press', key: 'Tab' },
    ],
    extractionScript: 'return document.querySelector("#out").textContent',
  } });
  const taskId = task.body.id as string;
  const run = async (viewer: boolean) => {
    if (!viewer) return (await request(base, 'POST', `/api/tasks/${taskId}/api`, { cookie, body: {} })).body as { durationMs: number; status: string; seen?: Watch };
    const started = await request(base, 'POST', `/api/tasks/${taskId}/api`, { cookie, headers: { prefer: 'respond-async' }, body: {} });
    const seen = await watch(base, cookie, started.body.executionId);
    const record = (await request(base, 'GET', `/api/executions/${started.body.executionId}`, { cookie })).body;
    return { ...record, seen } as { durationMs: number; status: string; seen: Watch };
  };
  await run(false); // warm-up: the browser and the first context
  await run(true);
  const without: number[] = [];
  const withViewer: number[] = [];
  const fps: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const bare = await run(false);
    const watched = await run(true);
    if (bare.status !== 'success' || watched.status !== 'success') throw new Error(`a run failed: ${bare.status} / ${watched.status}`);
    without.push(bare.durationMs);
    withViewer.push(watched.durationMs);
    const { frames, firstAt, lastAt } = watched.seen!;
    if (firstAt !== undefined && lastAt !== undefined && lastAt > firstAt) fps.push((frames - 1) / ((lastAt - firstAt) / 1000));
  }
  const ratio = median(withViewer) / median(without);
  const load = os.loadavg().map((v) => v.toFixed(1)).join(' ');
  console.log(`bench:live-view, ${RUNS} runs each, interleaved; load average ${load}`);
  console.log(formatTable([
    { metric: 'run time with a viewer (median)', value: fmt.ms(median(withViewer)), target: '<= 1.10x without', baseline: fmt.ms(median(without)), ratio: fmt.ratio(ratio), result: verdict(ratio <= 1.1) },
    { metric: 'frames per second at 1280x720 (median)', value: median(fps).toFixed(1), target: '>= 5', baseline: '', ratio: '', result: verdict(median(fps) >= 5) },
  ]));
} finally {
  await proc.stop();
  await pages.close();
  await removeTempDir(dataDir);
  fs.rmSync(pagesDir, { recursive: true, force: true });
}
