// The run queue's cost: the same task run one after another on a service with QUEUE=memory, QUEUE=pg-boss and
// QUEUE=bullmq (each on its own fresh PostgreSQL database, STORAGE=postgres, so only the queue differs). Two figures
// per queue: the wait in the queue (the record's queuedAt to the start of the run, an idle worker) and the whole
// answer of `POST /api/tasks/{id}/api`; the added latency is each against the in-process queue's.
import { randomBytes } from 'node:crypto';
import { request } from '../../test/support/service.js';
import { createTestDatabase } from '../../test/support/postgres-database.js';
import { freePort, makeTempDir, median, removeTempDir, spawnNode, waitHealthy } from './children.js';
import { fmt, verdict, type Row } from './report.js';
import { prepareService, runTask } from './runs-service.js';

const QUEUES = ['memory', 'pg-boss', 'bullmq'] as const;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The target: a run through a shared queue waits at most this much longer than through the in-process one. */
const ADDED_TARGET_MS = 30;

interface QueueFigures { waitMs: number; answerMs: number; failures: number }

/** `runs` sequential runs (after `warmups`) on a service using `queue`; medians of the queue wait and the answer. */
async function measure(script: string, origin: string, queue: (typeof QUEUES)[number], warmups: number, runs: number): Promise<QueueFigures> {
  const db = await createTestDatabase('taskloom_bench_queue');
  const dataDir = makeTempDir('taskloom-bench-queue-');
  const port = await freePort();
  const proc = spawnNode(script, port, {
    PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ALLOW_PRIVATE_NETWORKS: 'true', MAX_CONCURRENT_RUNS: '2',
    STORAGE: 'postgres', DATABASE_URL: db.url(), QUEUE: queue, REDIS_URL, QUEUE_PREFIX: `taskloom-bench-${randomBytes(4).toString('hex')}`,
  }, 15_000);
  try {
    await waitHealthy(proc, 20);
    const { apiKey, taskId } = await prepareService(proc.baseUrl, origin);
    const waits: number[] = [];
    const answers: number[] = [];
    let failures = 0;
    for (let n = 0; n < warmups + runs; n += 1) {
      const { ms, ok, res } = await runTask(proc.baseUrl, apiKey, taskId);
      if (!ok) {
        failures++;
        continue;
      }
      if (n < warmups) continue;
      const record = (await request(proc.baseUrl, 'GET', `/api/executions/${res.body.executionId}`, { apiKey })).body;
      const startedLine = (record.logs as Array<{ at: string; message: string }>).find((line) => line.message === 'started');
      if (startedLine) waits.push(Date.parse(startedLine.at) - Date.parse(record.queuedAt));
      answers.push(ms);
    }
    return { waitMs: median(waits), answerMs: median(answers), failures };
  } finally {
    await proc.stop();
    await removeTempDir(dataDir);
    await db.drop();
  }
}

/** Measures every queue and resolves to the report's rows (and prints a line per queue). */
export async function queueLatencyRows(script: string, origin: string, say: (line: string) => void, warmups = 3, runs = 20): Promise<Row[]> {
  const figures = new Map<string, QueueFigures>();
  for (const queue of QUEUES) {
    const f = await measure(script, origin, queue, warmups, runs);
    figures.set(queue, f);
    say(`  QUEUE=${queue}: wait in the queue median ${fmt.ms(f.waitMs)}, answer median ${fmt.ms(f.answerMs)}${f.failures ? `, ${f.failures} FAILED` : ''}`);
  }
  const memory = figures.get('memory')!;
  return QUEUES.filter((queue) => queue !== 'memory').map((queue) => {
    const f = figures.get(queue)!;
    const added = f.waitMs - memory.waitMs;
    return {
      metric: `added queue wait, QUEUE=${queue}`, value: fmt.ms(added), target: `<= ${ADDED_TARGET_MS} ms`,
      baseline: `${fmt.ms(memory.waitMs)} in-process`, ratio: `answer ${fmt.ms(f.answerMs - memory.answerMs)}`,
      result: verdict(added <= ADDED_TARGET_MS, f.failures + memory.failures > 0),
    };
  });
}
