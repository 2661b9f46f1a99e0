// The schedules runtime over a scheduler whose fires travel through a queue (SCHEDULER=pg-boss, bullmq): a fire is
// held until its run ended, so the engine skips the task's next fires meanwhile; a fire handed on after its holder
// died runs, unless that holder had queued its run already. Fires are put on the queue here as another
// instance's clock would put them (the engines themselves face testing/scheduler.contract.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { JobQueue } from '../../kernel/contracts/queue.js';
import { createSchedulesRuntime } from '../../plugins/schedules/index.js';
import { createMemoryQueue } from '../../providers/queue/memory/memory-queue.js';
import { createQueuedScheduler, FIRES_QUEUE, fireId, overlapKey } from '../../providers/scheduler/shared/queued-scheduler.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { makeTempDir } from '../support/service.js';
import { createRecordingRuns } from '../providers/scheduler/harness.js';

const silent: Logger = { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => silent };
const stamp = new Date().toISOString();
const JOB = { key: 'task-1', cron: '* * * * *', timezone: 'UTC' };

async function setup(t: TestContext) {
  const dir = await makeTempDir('taskloom-shared-fires-');
  const storage = await openJsonStorage({ dir, logger: silent });
  await storage.tasks.put({
    id: 'task-1', name: 'Every minute', url: 'https://example.com/', mode: 'scrape', actions: [], createdAt: stamp, updatedAt: stamp,
    schedule: { enabled: true, cron: '* * * * *', timezone: 'UTC' },
  });
  const queue = createMemoryQueue();
  const scheduler = createQueuedScheduler({ id: 'memory-engine', queue, logger: silent });
  const runs = createRecordingRuns(() => storage);
  const runtime = createSchedulesRuntime({ storage, scheduler, logger: silent, instanceId: 'here', taskRuns: runs, shutdownSignal: new AbortController().signal });
  await runtime.start();
  t.after(async () => {
    await runtime.stop();
    await runtime.drain();
    await queue.stop();
    await storage.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  /** Puts the fire planned at `plannedMs` on the queue, as any instance's clock does; null: not added. */
  const handOver = (plannedMs: number) =>
    queue.enqueue(FIRES_QUEUE, { job: JOB, plannedMs }, { id: fireId(JOB.key, plannedMs), key: overlapKey(JOB.key) });
  return { storage, queue, runs, runtime, handOver };
}

const minute = () => Math.floor(Date.now() / 60_000) * 60_000;
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`${what}: not within 2 s`);
}
const stateOf = (queue: JobQueue, plannedMs: number) => queue.state(FIRES_QUEUE, fireId(JOB.key, plannedMs));

describe('schedules over shared fires', () => {
  it('holds a fire until its run ended: the task\'s next fire is skipped by the engine meanwhile', async (t) => {
    const { queue, runs, handOver } = await setup(t);
    runs.hold();
    const first = minute() - 60_000;
    assert.equal(typeof await handOver(first), 'string');
    await until('the run started', () => runs.isRunning('task-1'));
    assert.equal(await stateOf(queue, first), 'active', 'held while the run goes on');
    assert.equal(await handOver(first + 60_000), null, 'the next fire adds nothing while this one is held');
    runs.release();
    await until('the fire ended', async () => (await stateOf(queue, first)) === 'completed');
    assert.equal(typeof await handOver(first + 60_000), 'string');
    await until('the next fire ran', () => runs.calls.length === 2);
    assert.equal(await handOver(first), null, 'a fire is one job: the same fire again adds nothing');
  });

  it('a fire handed on after its holder died runs, unless that holder had already queued its run', async (t) => {
    const { storage, runs, runtime } = await setup(t);
    // The holder of this fire died after queuing its run: handed on here (attempt 2), it runs nothing.
    const planned = minute() - 120_000;
    const queuedAt = new Date(planned + 150).toISOString();
    await storage.executions.insert({
      executionId: 'exec_dead_holder', taskId: 'task-1', taskName: 'Every minute', status: 'interrupted', trigger: 'schedule',
      startedAt: queuedAt, queuedAt, finishedAt: queuedAt, durationMs: 0, result: {}, logs: [],
    });
    await runtime.fire(JOB, planned, { attempt: 2 });
    assert.deepEqual(runs.calls, []);
    // The holder of the next one died before queuing anything: it runs here, nothing is lost.
    await runtime.fire(JOB, planned + 60_000, { attempt: 2 });
    assert.deepEqual(runs.calls, [{ taskId: 'task-1', trigger: 'schedule' }]);
  });

  it('lets its fires go as the instance stops: the engine does not wait for runs still going', async (t) => {
    const { queue, runs, runtime, handOver } = await setup(t);
    runs.hold();
    const planned = minute();
    await handOver(planned);
    await until('the run started', () => runs.isRunning('task-1'));
    await runtime.stop();
    assert.equal(await stateOf(queue, planned), 'completed', 'the scheduler stopped without waiting for the run');
    runs.release();
  });
});
