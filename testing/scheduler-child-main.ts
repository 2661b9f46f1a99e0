// The child of scheduler-child.ts: opens a scheduler, takes the one fire it is told about and holds it.
import { mock } from 'node:test';
import type { ScheduledJob, Scheduler } from '../kernel/contracts/scheduler.js';

const spec = JSON.parse(process.env.SCHEDULER_CHILD!) as { module: string; exportName: string; args: unknown; job: ScheduledJob; plannedMs: number };
const open = (await import(spec.module))[spec.exportName] as (args: unknown) => Promise<Scheduler>;
const scheduler = await open(spec.args);
// Only `Date` is mocked: a millisecond before the planned time, then moved on to it, so the fire comes now rather
// than at that minute of the real clock. Every timer (the engine's, the scheduler's) stays real.
mock.timers.enable({ apis: ['Date'], now: spec.plannedMs - 1 });
await scheduler.upsert(spec.job);
await scheduler.start(async (job, plannedMs) => {
  process.stdout.write(`took ${job.key} ${plannedMs}\n`);
  await new Promise(() => {}); // held until the parent kills this process
});
mock.timers.tick(1);
