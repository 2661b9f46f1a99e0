/**
 * The baseline of `npm run bench:schedules`, run as its own process beside the bench (its own event loop, so
 * neither measures the other): croner scheduling the same 1,000 every-minute jobs itself. Prints one JSON line:
 * setup time, memory for the jobs, and how late the callbacks ran after their planned minute (median, p99, worst).
 */
import { Cron } from 'croner';
import { percentile } from './children.js';
import { memoryNow, sleepUntil } from './schedules-probe.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
/** Set by the bench: both processes measure the same minutes. */
const END_MS = Number(process.env.BENCH_END_MS);

const before = memoryNow();
const started = performance.now();
const lateness: number[] = [];
const jobs = Array.from({ length: JOBS }, () => new Cron('* * * * *', () => {
  const now = Date.now();
  lateness.push(now - Math.floor(now / 60_000) * 60_000);
}));
const readyMs = performance.now() - started;
const after = memoryNow();

await sleepUntil(END_MS);
for (const job of jobs) job.stop();
const sorted = [...lateness].sort((a, b) => a - b);
const summary = {
  readyMs, heapMb: after.heapMb - before.heapMb, rssMb: after.rssMb - before.rssMb,
  fires: sorted.length, medianMs: percentile(sorted, 50), p99Ms: percentile(sorted, 99), worstMs: sorted.at(-1) ?? NaN,
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
