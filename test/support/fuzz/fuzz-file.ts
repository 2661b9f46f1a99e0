// What each API fuzzer file (test/e2e/api-fuzz*.test.ts, one per store) runs: the seeded fuzzer over every operation
// of the service started with `env`, asserting the rules. FUZZ_SEED=<n> explores other requests, FUZZ_REQUESTS=<n>
// sends more per operation.
import assert from 'node:assert/strict';
import { chromiumOrSkip } from '../../../testing/browser.contract.js';
import { fuzzAll, formatFindings, type FuzzPlan } from './fuzz-all.js';
import { startFuzzService } from './fuzz-service.js';
import { createPrng, fuzzSeed } from './prng.js';

export const seed = fuzzSeed();
const perOperation = Number(process.env.FUZZ_REQUESTS ?? 50);
const chromium = chromiumOrSkip();

/** Operations that start Chromium: a few requests each is enough to reach them, and the machine is small. */
const BROWSER_BUDGETS: Record<string, number> = { runTask: 12, runToHere: 8, openBrowser: 6, closeBrowser: 8, highlightElements: 8, generateSelector: 8, openStudioSession: 6 };
const BUDGETS: Record<string, number> = { ...BROWSER_BUDGETS, login: 12, logout: 10, generateScript: 20, importTasks: 30 };

function plan(scale: number): FuzzPlan {
  const skipped: Record<string, string> = {};
  if (chromium.skip) for (const id of Object.keys(BROWSER_BUDGETS)) skipped[id] = `needs Chromium: ${chromium.skip}`;
  const budgets = Object.fromEntries(Object.entries(BUDGETS).map(([id, n]) => [id, Math.max(1, Math.round(n * scale))]));
  return { perOperation: Math.max(1, Math.round(perOperation * scale)), budgets, skipped, bodyLimit: 5 * 1024 * 1024 };
}

/** Fuzzes a service started with `env`, `scale` times the requests per operation. */
export async function fuzz(t: { diagnostic(line: string): void }, env: Record<string, string>, scale: number) {
  console.log(`# API fuzzer seed ${seed} (replay or explore with FUZZ_SEED=<n>)`);
  const fz = await startFuzzService(env);
  try {
    const summary = await fuzzAll(fz, createPrng(seed), plan(scale), (line) => t.diagnostic(line));
    const statuses = [...summary.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
    t.diagnostic(`seed ${seed}: ${summary.sent} requests over ${summary.perOperation.size} of ${summary.operations.length} operations (${statuses})`);
    for (const note of summary.notes) t.diagnostic(`note: ${note}`);
    assert.ok(summary.operations.length >= 70, `the document lists ${summary.operations.length} operations`);
    for (const op of summary.operations) assert.ok(op.operationId, `${op.method} ${op.path} has an operationId`);
    assert.equal(summary.findings.length, 0, `seed ${seed}: ${summary.findings.length} answers broke a rule:\n${formatFindings(summary.findings)}`);
  } finally {
    await fz.close();
  }
}
