import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { Schedule, TaskRecord } from '../../kernel/contracts/records.js';
import { createSchedulesRuntime } from '../../plugins/schedules/index.js';
import { claimKey, MAX_LATENESS_MS } from '../../plugins/schedules/fire.js';
import { createBreeScheduler } from '../../providers/scheduler/bree/index.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { makeTempDir } from '../support/service.js';
import { createRecordingRuns } from '../providers/scheduler/harness.js';

/** A logger that keeps `level message` lines, so tests can check what was logged. */
function recordingLogger(lines: string[]): Logger {
  const keep = (level: string) => (obj: unknown, msg?: string) => { lines.push(`${level} ${msg ?? ''} ${JSON.stringify(obj)}`); };
  const logger: Logger = {
    fatal: keep('fatal'), error: keep('error'), warn: keep('warn'), info: keep('info'), debug() {}, trace() {},
    child: () => logger,
  };
  return logger;
}

const YEARLY: Schedule = { enabled: true, cron: '0 0 1 1 *', timezone: 'UTC' };
const JOB = { key: 'task-1', cron: '0 0 1 1 *', timezone: 'UTC' };

/** One runtime (storage, bree scheduler, recorder runner) on a fresh JSON store, with task `task-1`. */
async function setup(t: TestContext, options: { schedule?: Schedule } = {}) {
  const dir = await makeTempDir('taskloom-fire-');
  const lines: string[] = [];
  const logger = recordingLogger(lines);
  const storage = await openJsonStorage({ dir, logger });
  const runs = createRecordingRuns(() => storage);
  const scheduler = createBreeScheduler({ logger });
  const runtime = createSchedulesRuntime({
    storage, scheduler, logger, shutdownSignal: new AbortController().signal,
    taskRuns: runs,
  });
  const at = new Date().toISOString();
  const task: TaskRecord = {
    id: 'task-1', name: 'Nightly', url: 'https://example.com/', mode: 'scrape', actions: [],
    schedule: options.schedule ?? YEARLY, createdAt: at, updatedAt: at,
  };
  await storage.tasks.put(task);
  await runtime.start();
  t.after(async () => {
    await runtime.stop();
    await runtime.drain();
    await storage.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  return { storage, runs, scheduler, runtime, lines };
}

/** A planned fire time a moment ago, as the scheduler would deliver it. */
const justNow = () => Math.floor(Date.now() / 60_000) * 60_000;

describe('schedules: a fire', () => {
  it('runs the task through taskRuns with trigger "schedule" and records lastRun, lastRunStatus, lastRunDurationMs', async (t) => {
    const { storage, runs, runtime } = await setup(t);
    const before = Date.now();
    await runtime.fire(JOB, justNow());
    assert.deepEqual(runs.calls, [{ taskId: 'task-1', trigger: 'schedule' }]);
    const [execution] = await storage.executions.list();
    assert.equal(execution!.trigger, 'schedule');
    assert.equal(execution!.taskId, 'task-1');
    const { schedule } = (await storage.tasks.get('task-1'))!;
    assert.ok(Date.parse(schedule!.lastRun!) >= before);
    assert.equal(schedule!.lastRunStatus, 'success');
    assert.equal(schedule!.lastRunDurationMs, execution!.durationMs);
    assert.equal(schedule!.cron, YEARLY.cron, 'the schedule itself is unchanged');
  });

  it('is claimed first: a fire another instance claimed does not run here', async (t) => {
    const { storage, runs, runtime } = await setup(t);
    const planned = justNow();
    assert.equal(await storage.claims.claim(claimKey('task-1', planned), 'other-instance', 60_000), true);
    await runtime.fire(JOB, planned);
    assert.deepEqual(runs.calls, []);
    await runtime.fire(JOB, planned - 60_000);
    assert.equal(runs.calls.length, 1, 'another fire time is another claim');
  });

  it('of a deleted task runs nothing and removes the job, so it stops firing', async (t) => {
    const { storage, runs, scheduler, runtime, lines } = await setup(t);
    assert.deepEqual(scheduler.jobs().map((j) => j.key), ['task-1']);
    await storage.tasks.delete('task-1');
    await runtime.fire(JOB, justNow());
    assert.deepEqual(runs.calls, []);
    assert.deepEqual(scheduler.jobs(), []);
    assert.equal(scheduler.nextRun('task-1'), null);
    assert.ok(lines.some((l) => l.includes('scheduled task was deleted')));
  });

  it('is skipped and logged while the previous run of the task is still running', async (t) => {
    const { storage, runs, runtime, lines } = await setup(t);
    runs.hold();
    const first = runtime.fire(JOB, justNow() - 60_000);
    while (!runs.isRunning('task-1')) await new Promise((resolve) => setImmediate(resolve));
    await runtime.fire(JOB, justNow());
    assert.equal(runs.calls.length, 1);
    assert.ok(lines.some((l) => l.startsWith('warn scheduled fire skipped: the previous run of this task is still running')));
    runs.release();
    await first;
    assert.equal((await storage.executions.list()).length, 1);
    assert.equal((await storage.tasks.get('task-1'))!.schedule!.lastRunStatus, 'success');
  });

  it('is dropped as missed when it comes more than five minutes late', async (t) => {
    const { runs, runtime, lines } = await setup(t);
    await runtime.fire(JOB, Date.now() - MAX_LATENESS_MS - 1_000);
    assert.deepEqual(runs.calls, []);
    assert.ok(lines.some((l) => l.includes('missed by more than 5 minutes')));
  });

  it('follows the stored schedule: disabled or changed behind the scheduler, it runs nothing and corrects the job', async (t) => {
    const { storage, runs, scheduler, runtime } = await setup(t);
    await storage.tasks.update('task-1', (task) => ({ ...task, schedule: { enabled: true, cron: '0 12 * * *', timezone: 'UTC' } }));
    await runtime.fire(JOB, justNow());
    assert.deepEqual(runs.calls, []);
    assert.deepEqual(scheduler.jobs(), [{ key: 'task-1', cron: '0 12 * * *', timezone: 'UTC' }]);
    await storage.tasks.update('task-1', (task) => ({ ...task, schedule: { ...task.schedule!, enabled: false } }));
    await runtime.fire({ key: 'task-1', cron: '0 12 * * *', timezone: 'UTC' }, justNow());
    assert.deepEqual(runs.calls, []);
    assert.deepEqual(scheduler.jobs(), []);
  });
});

describe('schedules: loading and syncing stored schedules', () => {
  it('loads every enabled, valid schedule at start-up and picks up later writes made around the plugin', async (t) => {
    const { storage, scheduler, runtime, lines } = await setup(t);
    assert.deepEqual(scheduler.jobs(), [JOB]);
    const stamp = new Date().toISOString();
    const base = { url: 'https://example.com/', mode: 'scrape', actions: [], createdAt: stamp, updatedAt: stamp };
    await storage.tasks.put({ ...base, id: 'weekly', name: 'W', schedule: { enabled: true, frequency: 'weekly', daysOfWeek: [2], hour: 5 } });
    await storage.tasks.put({ ...base, id: 'off', name: 'O', schedule: { enabled: false, frequency: 'daily' } });
    await storage.tasks.put({ ...base, id: 'broken', name: 'B', schedule: { enabled: true, frequency: 'monthly' } });
    await storage.tasks.delete('task-1');
    assert.equal(await runtime.syncNow(), 1);
    assert.deepEqual(scheduler.jobs(), [{ key: 'weekly', cron: '0 5 * * 2' }]);
    assert.ok(scheduler.nextRun('weekly')! > Date.now());
    await runtime.syncNow();
    const warnings = lines.filter((l) => l.startsWith('warn stored schedule is invalid'));
    assert.equal(warnings.length, 1, 'an invalid stored schedule is reported once, not at every sync');
    assert.match(warnings[0]!, /broken.*dayOfMonth/);
  });
});
