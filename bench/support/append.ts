import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogger } from '../../kernel/logger.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { makeTempDir, mean, median, percentile, removeTempDir } from './children.js';
import { makeExecution } from './fixtures.js';

export interface AppendResult {
  historySize: number;
  /** Wall time to load the history with concurrent batches. */
  loadMs: number;
  samples: number;
  medianMs: number;
  p99Ms: number;
  meanMs: number;
  /** Bare `write` + `datasync` of the same line on the same disk, median. */
  fsyncMedianMs: number;
  fsyncP99Ms: number;
  lineBytes: number;
}

const BATCH = 500;

/**
 * Opens the JSON store in-process on a fresh directory, fills the execution history with
 * `historySize` records, then times `samples` sequential inserts, each followed by a bare
 * appended, fdatasync'd line of the same record in the same directory (the baseline).
 */
export async function benchAppend(historySize: number, samples: number, progress: (line: string) => void): Promise<AppendResult> {
  const dir = makeTempDir('taskloom-bench-store-');
  try {
    const taskIds = Array.from({ length: 100 }, (_, i) => `task_bench_${i}`);
    const storage = await openJsonStorage({ dir: path.join(dir, 'store'), logger: createLogger({ logLevel: 'warn' }) });
    const times: number[] = [];
    const fsyncTimes: number[] = [];
    let loadMs: number;
    let lineBytes = 0;
    try {
      const loadStart = performance.now();
      for (let first = 0; first < historySize; first += BATCH) {
        const batch: Promise<unknown>[] = [];
        for (let i = first; i < Math.min(first + BATCH, historySize); i++) {
          batch.push(storage.executions.insert(makeExecution(i, taskIds)));
        }
        await Promise.all(batch);
        if ((first + BATCH) % 20_000 === 0) progress(`  history: ${first + BATCH} records`);
      }
      loadMs = performance.now() - loadStart;
      const stored = await storage.executions.count();
      if (stored !== historySize) throw new Error(`history holds ${stored} records, expected ${historySize}`);

      // Store insert and bare append alternate, so both see the same disk and page-cache state.
      const handle = await fs.open(path.join(dir, 'baseline.jsonl'), 'a');
      try {
        for (let k = 0; k < samples; k++) {
          const record = makeExecution(historySize + k, taskIds, Date.now());
          const line = JSON.stringify(record) + '\n';
          lineBytes = Buffer.byteLength(line);
          let start = performance.now();
          await storage.executions.insert(record);
          times.push(performance.now() - start);
          start = performance.now();
          await handle.write(line);
          await handle.datasync();
          fsyncTimes.push(performance.now() - start);
        }
      } finally {
        await handle.close();
      }
    } finally {
      await storage.close();
    }

    return {
      historySize,
      loadMs,
      samples,
      medianMs: median(times),
      p99Ms: percentile(times, 99),
      meanMs: mean(times),
      fsyncMedianMs: median(fsyncTimes),
      fsyncP99Ms: percentile(fsyncTimes, 99),
      lineBytes,
    };
  } finally {
    await removeTempDir(dir);
  }
}
