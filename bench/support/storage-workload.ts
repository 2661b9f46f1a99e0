import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ExecutionQuery, StorageProvider } from '../../kernel/contracts/storage.js';
import { median, percentile } from './children.js';
import { makeExecution, makeTask } from './fixtures.js';

export interface Timing {
  medianMs: number;
  p99Ms: number;
  samples: number;
}

export interface WorkloadFigures {
  insert: { count: number; ms: number };
  historyPage: Timing;
  statusPage: Timing;
  offsetPages: Timing;
  taskList: Timing & { tasks: number };
  writers: { writers: number; writes: number; ms: number; perSec: number };
}

export interface WorkloadSize {
  executions: number;
  tasks: number;
  /** Calls timed per query (after a tenth as many untimed warm-up calls). */
  samples: number;
  writers: number;
  /** Runs per writer: each is an insert and two updates, as a real run writes its record. */
  runsPerWriter: number;
}

const TASK_IDS = Array.from({ length: 100 }, (_, i) => `task_bench_${i}`);
const BATCH = 500;

/** The same work on any store, through the storage contract only. */
export async function runWorkload(storage: StorageProvider, size: WorkloadSize, say: (line: string) => void): Promise<WorkloadFigures> {
  const insertStart = performance.now();
  for (let first = 0; first < size.executions; first += BATCH) {
    const batch = [];
    for (let i = first; i < Math.min(first + BATCH, size.executions); i++) batch.push(storage.executions.insert(makeExecution(i, TASK_IDS)));
    await Promise.all(batch);
    if ((first + BATCH) % 25_000 === 0) say(`    ${(first + BATCH).toLocaleString('en-US')} executions`);
  }
  const insert = { count: size.executions, ms: performance.now() - insertStart };
  const stored = await storage.executions.count();
  if (stored !== size.executions) throw new Error(`the history holds ${stored} records, expected ${size.executions}`);

  const page = async (query: ExecutionQuery) => {
    const records = await storage.executions.list(query);
    if (records.length !== 50) throw new Error(`list(${JSON.stringify(query)}) gave ${records.length} records, expected 50`);
  };
  const historyPage = await timeCalls(size.samples, () => page({ limit: 50 }));
  const statusPage = await timeCalls(size.samples, () => page({ limit: 50, status: 'error' }));
  // Walking the history page by page, as the dashboard's "older" button does: offsets 50, 100, ...
  let offset = 0;
  const offsetPages = await timeCalls(size.samples, () => page({ limit: 50, offset: (offset = (offset + 50) % (size.executions - 50)) }));

  await Promise.all(Array.from({ length: size.tasks }, (_, i) => storage.tasks.put({
    ...makeTask(i), id: `task_${i}`, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
  })));
  const taskList = { ...(await timeCalls(Math.max(20, Math.round(size.samples / 4)), async () => {
    if ((await storage.tasks.list()).length !== size.tasks) throw new Error('the task list is short');
  })), tasks: size.tasks };

  const writers = await concurrentWriters(storage, size.writers, size.runsPerWriter);
  return { insert, historyPage, statusPage, offsetPages, taskList, writers };
}

/** Times `samples` sequential calls, after a tenth as many untimed warm-up calls. */
async function timeCalls(samples: number, call: () => Promise<void>): Promise<Timing> {
  for (let i = 0; i < Math.ceil(samples / 10); i++) await call();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return { medianMs: median(times), p99Ms: percentile(times, 99), samples };
}

/** `writers` concurrent loops, each writing its runs (insert queued, update running, update finished). */
async function concurrentWriters(storage: StorageProvider, writers: number, runsPerWriter: number): Promise<WorkloadFigures['writers']> {
  const start = performance.now();
  await Promise.all(Array.from({ length: writers }, async (_, w) => {
    for (let r = 0; r < runsPerWriter; r++) {
      const record = { ...makeExecution(w * runsPerWriter + r, TASK_IDS, Date.now()), executionId: `exec_w_${randomBytes(9).toString('base64url')}`, status: 'queued' as const };
      await storage.executions.insert(record);
      await storage.executions.update(record.executionId, (current) => ({ ...current, status: 'running' }));
      await storage.executions.update(record.executionId, (current) => ({ ...current, status: 'success', finishedAt: new Date().toISOString() }));
    }
  }));
  const ms = performance.now() - start;
  const writes = writers * runsPerWriter * 3;
  return { writers, writes, ms, perSec: (writes / ms) * 1000 };
}
