// Admission under a burst: a service without MAX_CONCURRENT_RUNS (the limit computed from this host) and
// MAX_QUEUED_RUNS=20 is sent 50 runs of the bench task at once (Prefer: respond-async). Reports the computed limits
// (GET /api/capabilities), how many were accepted (202) and refused (429 QUEUE_FULL, with their Retry-After),
// whether every accepted run ended (each polled until its record is final), and the time until the last ended.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from '../../test/support/service.js';
import { freePort, makeTempDir, removeTempDir, spawnNode, waitHealthy } from './children.js';
import { fmt, verdict, type Row } from './report.js';
import { prepareService } from './runs-service.js';

const BURST = 50;
const MAX_QUEUED = 20;
const ENDED = new Set(['success', 'error', 'timeout', 'cancelled', 'interrupted']);
const ENDS_WITHIN_MS = 5 * 60_000;

export async function admissionRows(script: string, origin: string, say: (line: string) => void): Promise<Row[]> {
  const dataDir = makeTempDir('taskloom-bench-admission-');
  const port = await freePort();
  const proc = spawnNode(script, port, {
    PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ALLOW_PRIVATE_NETWORKS: 'true',
    MAX_QUEUED_RUNS: String(MAX_QUEUED), MAX_CONCURRENT_RUNS: '',
  }, 30_000);
  try {
    await waitHealthy(proc, 20);
    const { apiKey, taskId } = await prepareService(proc.baseUrl, origin);
    const capabilities = async () => (await request(proc.baseUrl, 'GET', '/api/capabilities', { apiKey })).body.runs;
    const before = await capabilities();
    say(`  computed: ${before.maxConcurrentRuns} runs at once = ${before.computed.explanation}; MAX_QUEUED_RUNS=${MAX_QUEUED}`);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: BURST }, () => request(proc.baseUrl, 'POST', `/api/tasks/${taskId}/api`, {
      apiKey, headers: { prefer: 'respond-async' },
    })));
    const answeredMs = performance.now() - started;
    const accepted = answers.filter((res) => res.status === 202).map((res) => res.body.executionId as string);
    const refused = answers.filter((res) => res.status === 429 && res.body.error === 'QUEUE_FULL');
    const retryAfter = refused.map((res) => Number(res.headers.get('retry-after')));
    const other = BURST - accepted.length - refused.length;
    let statuses = new Map<string, string>();
    while (performance.now() - started < ENDS_WITHIN_MS) {
      statuses = new Map(await Promise.all(accepted.map(async (id) =>
        [id, (await request(proc.baseUrl, 'GET', `/api/executions/${id}`, { apiKey })).body.status as string] as const)));
      if ([...statuses.values()].every((status) => ENDED.has(status))) break;
      await sleep(250);
    }
    const endedMs = performance.now() - started;
    const ended = [...statuses.values()].filter((status) => ENDED.has(status)).length;
    const succeeded = [...statuses.values()].filter((status) => status === 'success').length;
    const after = await capabilities();
    say(`  burst of ${BURST}: ${accepted.length} accepted (202), ${refused.length} refused (429 QUEUE_FULL, Retry-After `
      + `${Math.min(...retryAfter)}-${Math.max(...retryAfter)} s), ${other} other; every answer within ${fmt.ms(answeredMs)}; `
      + `${ended} of ${accepted.length} accepted ended (${succeeded} success) ${fmt.ms(endedMs)} after the burst`);
    say(`  afterwards: ${after.memoryPerRunMb} MB a run (${after.memoryEstimate}, ${after.memorySamples} samples), `
      + `run time ${fmt.ms(after.averageRunMs)} (moving average), limit now ${after.computed.limit} = ${after.computed.explanation}`);
    const row = (metric: string, value: string, target: string, ok: boolean | undefined): Row =>
      ({ metric, value, target, baseline: '-', ratio: '-', result: verdict(ok, other > 0) });
    return [
      row('admission: computed runs at once', String(before.maxConcurrentRuns), '-', undefined),
      row(`admission: burst of ${BURST}, accepted`, String(accepted.length), `<= ${MAX_QUEUED} + slots`, accepted.length <= MAX_QUEUED + before.maxConcurrentRuns + 1),
      row(`admission: burst of ${BURST}, refused 429`, String(refused.length), 'the rest', refused.length + accepted.length === BURST),
      row('admission: slowest answer to the burst', fmt.ms(answeredMs), 'no request held', answeredMs < 10_000),
      row('admission: accepted runs ended', `${ended}/${accepted.length}`, 'all', ended === accepted.length),
      row('admission: burst to last run ended', fmt.ms(endedMs), '-', undefined),
    ];
  } finally {
    await proc.stop();
    await removeTempDir(dataDir);
  }
}
