/**
 * `npm run bench:large-results`: the history page (`GET /api/executions`, 50 newest, what the dashboard asks) over
 * HTTP with 200 executions whose results are 2 MB each, kept inline in the records against stored apart
 * (README "Large results"), and the same history with small results as the baseline, all measured in this run on
 * the real service (in process, STORAGE=json unless BENCH_STORAGE=postgres with BENCH_DATABASE_URL). The records
 * are written through the storage contract (a 2 MB run 200 times would measure the browser, not the history);
 * the stored-apart ones through the code the runs use. BENCH_SAMPLES changes how many times each page is read.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../kernel/config.js';
import type { ExecutionRecord, ExecutionResult } from '../kernel/contracts/records.js';
import { createService, type Service } from '../app/service.js';
import { storeResultApart } from '../layers/stored-results/store-apart.js';
import { ADMIN, request } from '../test/support/service.js';
import { fmt, formatTable, verdict, type Row } from './support/report.js';

const EXECUTIONS = 200;
const RESULT_BYTES = 2 * 1024 * 1024;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 7);
const STORAGE = process.env.BENCH_STORAGE ?? 'json';
const say = (line: string) => process.stdout.write(`${line}\n`);

type Case = 'small' | 'inline' | 'apart';

/** About `bytes` of rows, as an extraction of a long list gives. */
function bigResult(bytes: number, seed: number): ExecutionResult {
  const row = (i: number) => ({ sku: `SKU-${seed}-${i}`, name: `Product ${i} of run ${seed}`, price: i * 1.5, note: 'x'.repeat(40) });
  const perRow = JSON.stringify(row(0)).length + 1;
  return { data: Array.from({ length: Math.ceil(bytes / perRow) }, (_, i) => row(i)), finalUrl: 'https://shop.example/list', title: 'Products', captures: [] };
}

function recordOf(i: number, result: ExecutionResult): ExecutionRecord {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return {
    executionId: `exec_bench_${i}`, taskId: 'task_bench', taskName: 'bench', status: 'success', trigger: 'api', startedAt: at, finishedAt: at,
    durationMs: 1000, result, logs: [{ at, level: 'info', message: 'finished: success' }],
  };
}

async function fill(service: Service, kind: Case): Promise<void> {
  const { storage, blob } = service.services;
  for (let i = 0; i < EXECUTIONS; i++) {
    const result = kind === 'small' ? { data: [{ sku: `SKU-${i}` }], captures: [] } : bigResult(RESULT_BYTES, i);
    // The default threshold (256 KiB): below it for inline, as a service with RESULT_INLINE_MAX_BYTES above 2 MB keeps it.
    const recorded = kind === 'apart' ? await storeResultApart(blob, `exec_bench_${i}`, result, 256 * 1024) : { result };
    await storage.executions.insert({ ...recordOf(i, recorded.result), ...(recorded.resultStoredApart ? { resultStoredApart: recorded.resultStoredApart } : {}) });
  }
}

async function measure(kind: Case): Promise<{ medianMs: number; bytes: number }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'taskloom-bench-large-'));
  const env: Record<string, string> = { LOG_LEVEL: 'silent', DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', STORAGE };
  if (STORAGE === 'postgres') env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const service = await createService(loadConfig(env));
  try {
    if (STORAGE === 'postgres') await service.services.storage.executions.clear();
    const baseUrl = (await service.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    await request(baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
    const login = await request(baseUrl, 'POST', '/api/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const filled = performance.now();
    await fill(service, kind);
    say(`  [${kind}] ${EXECUTIONS} executions written in ${((performance.now() - filled) / 1000).toFixed(1)} s`);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}/api/executions?limit=50`, { headers: { cookie } });
      const body = await res.arrayBuffer();
      times.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`the list answered ${res.status}`);
      bytes = body.byteLength;
    }
    times.sort((a, b) => a - b);
    return { medianMs: times[Math.floor(times.length / 2)]!, bytes };
  } finally {
    if (STORAGE === 'postgres') await service.services.storage.executions.clear().catch(() => 0);
    await service.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

say(`history page of 50 over ${EXECUTIONS} executions with 2 MB results, STORAGE=${STORAGE}, ${SAMPLES} reads each; load ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}`);
const small = await measure('small');
const inline = await measure('inline');
const apart = await measure('apart');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const rows: Row[] = [
  { metric: 'history page, small results (baseline)', value: `${fmt.ms(small.medianMs)} (${mb(small.bytes)})`, target: '-', baseline: fmt.ms(small.medianMs), ratio: fmt.ratio(1), result: '-' },
  { metric: 'history page, 2 MB results inline', value: `${fmt.ms(inline.medianMs)} (${mb(inline.bytes)})`, target: '-', baseline: fmt.ms(small.medianMs), ratio: fmt.ratio(inline.medianMs / small.medianMs), result: '-' },
  {
    metric: 'history page, 2 MB results stored apart', value: `${fmt.ms(apart.medianMs)} (${mb(apart.bytes)})`, target: '< 3x baseline',
    baseline: fmt.ms(small.medianMs), ratio: fmt.ratio(apart.medianMs / small.medianMs), result: verdict(apart.medianMs < small.medianMs * 3),
  },
];
say(`\n${formatTable(rows)}`);
say(`\nstored apart vs inline: ${fmt.ratio(inline.medianMs / apart.medianMs)} faster`);
