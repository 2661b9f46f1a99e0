import { Cron } from 'croner';
import type { Logger } from '../../kernel/contracts/logger.js';
import { createBreeScheduler } from '../../providers/scheduler/bree/index.js';
import { memoryNow } from './schedules-probe.js';

/** 1,000 different daily times: no two jobs share a pattern, unlike the every-minute jobs of the lateness run. */
const distinctCrons = (count: number) => Array.from({ length: count }, (_, i) => `${i % 60} ${Math.floor(i / 60) % 24} * * *`);

/**
 * Heap (MB, after a full collection) held by `count` armed jobs with distinct crons: in the bree scheduler, and
 * in croner holding one paused job each (what a scheduler keeping a croner instance per job would pay).
 */
export async function distinctCronHeap(count: number, logger: Logger): Promise<{ oursMb: number; cronerMb: number }> {
  const crons = distinctCrons(count);
  const start = memoryNow();
  const scheduler = createBreeScheduler({ logger });
  for (const [i, cron] of crons.entries()) await scheduler.upsert({ key: `distinct${i}`, cron });
  await scheduler.start(() => {});
  const armed = memoryNow();
  await scheduler.stop();
  const before = memoryNow();
  const jobs = crons.map((cron) => new Cron(cron, { paused: true }));
  const after = memoryNow();
  if (jobs.length !== count) throw new Error('unreachable');
  return { oursMb: armed.heapMb - start.heapMb, cronerMb: after.heapMb - before.heapMb };
}
