import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { describe, it } from 'node:test';
import pg from 'pg';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { TaskRecord } from '../../kernel/contracts/records.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { createInstance, type Instance } from '../../plugins/instances/instance.js';
import { createSchedulesRuntime } from '../../plugins/schedules/index.js';
import { createBreeScheduler } from '../../providers/scheduler/bree/index.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { openPostgresStorage } from '../../providers/storage/postgres/postgres-storage.js';
import { makeTempDir } from '../support/service.js';
import { createRecordingRuns, startSchedulesService, taskBody } from '../providers/scheduler/harness.js';

const silent: Logger = { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => silent };
const stamp = new Date().toISOString();
const task = (id: string, cron: string): TaskRecord => ({
  id, name: id, url: 'https://example.com/', mode: 'scrape', actions: [], schedule: { enabled: true, cron, timezone: 'UTC' },
  createdAt: stamp, updatedAt: stamp,
});

/** One service instance's schedules runtime (its own bree scheduler and runner) over `storage`. */
function instance(storage: StorageProvider, instanceId: string, options: { lease?: Instance; logger?: Logger } = {}) {
  const runs = createRecordingRuns(() => storage);
  const scheduler = createBreeScheduler({ logger: silent });
  const runtime = createSchedulesRuntime({
    storage, scheduler, logger: options.logger ?? silent, instanceId, instance: options.lease, taskRuns: runs,
    shutdownSignal: new AbortController().signal,
  });
  return { runs, scheduler, runtime };
}

/** A logger that keeps its warn lines. */
function warnLines(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const logger: Logger & { lines: string[] } = { ...silent, lines, warn: (_obj: unknown, msg?: string) => { lines.push(String(msg)); }, child: () => logger };
  return logger;
}

describe('schedules: several instances on one storage', () => {
  it('two instances sharing one storage plan the same fire times, and each fire runs once', async (t) => {
    const dir = await makeTempDir('taskloom-instances-');
    const storage = await openJsonStorage({ dir, logger: silent });
    t.after(async () => { await storage.close(); await fs.rm(dir, { recursive: true, force: true }); });
    await storage.tasks.put(task('every-minute', '* * * * *'));
    const a = instance(storage, 'instance-a');
    const b = instance(storage, 'instance-b');
    await a.runtime.start();
    await b.runtime.start();
    t.after(async () => { await a.runtime.stop(); await b.runtime.stop(); });
    // Both schedulers will deliver the same planned time, hence the same claim key.
    assert.equal(a.scheduler.nextRun('every-minute'), b.scheduler.nextRun('every-minute'));
    const job = { key: 'every-minute', cron: '* * * * *', timezone: 'UTC' };
    const base = Math.floor(Date.now() / 60_000) * 60_000;
    // Three fire times, each delivered to both instances at once, as their schedulers do.
    for (const planned of [base - 120_000, base - 60_000, base]) {
      await Promise.all([a.runtime.fire(job, planned), b.runtime.fire(job, planned)]);
    }
    const executions = await storage.executions.list();
    assert.equal(executions.length, 3);
    assert.equal(a.runs.calls.length + b.runs.calls.length, 3);
    assert.ok(executions.every((e) => e.trigger === 'schedule'));
  });

  it('a fire is skipped while the previous run is still running on another live instance, not once that instance stopped', async (t) => {
    const dir = await makeTempDir('taskloom-instances-');
    const storage = await openJsonStorage({ dir, logger: silent });
    t.after(async () => { await storage.close(); await fs.rm(dir, { recursive: true, force: true }); });
    await storage.tasks.put(task('slow', '* * * * *'));
    const leaseA = createInstance({ settings: storage.settings, logger: silent, id: 'instance-a', host: 'host-a' });
    const leaseB = createInstance({ settings: storage.settings, logger: silent, id: 'instance-b', host: 'host-b' });
    await leaseA.start();
    await leaseB.start();
    t.after(() => leaseB.stop());
    const logger = warnLines();
    const b = instance(storage, 'instance-b', { lease: leaseB, logger });
    // Instance A's run of the previous fire, as its runs plugin records it: B's runner knows nothing of it.
    await storage.executions.insert({
      executionId: 'run-on-a', taskId: 'slow', taskName: 'slow', status: 'running', trigger: 'schedule',
      startedAt: new Date().toISOString(), durationMs: 0, result: {}, logs: [], instanceId: 'instance-a',
    });
    const job = { key: 'slow', cron: '* * * * *', timezone: 'UTC' };
    const base = Math.floor(Date.now() / 60_000) * 60_000;
    await b.runtime.fire(job, base - 60_000);
    assert.deepEqual(b.runs.calls, []);
    assert.ok(logger.lines.includes('scheduled fire skipped: the previous run of this task is still running'), logger.lines.join('\n'));

    await leaseA.stop(); // A is gone: its record is a leftover recovery will mark, not a run in progress
    await b.runtime.fire(job, base);
    assert.equal(b.runs.calls.length, 1);
  });

  it('PostgreSQL: two instances, each with its own connection pool, run each fire once', async (t) => {
    const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const opened: Array<{ close(): Promise<void> }> = [];
    try {
      const reachable = await admin.query('SELECT 1').then(() => true, () => false);
      if (!reachable) {
        t.skip(`PostgreSQL is not reachable at ${url}: start it, or set TEST_DATABASE_URL`);
        return;
      }
      const first = await openPostgresStorage({ url, schema, poolSize: 4 });
      const second = await openPostgresStorage({ url, schema, poolSize: 4 });
      await first.tasks.put(task('pg-task', '0 0 1 1 *'));
      const a = instance(first, 'instance-a');
      const b = instance(second, 'instance-b');
      opened.push({ close: () => a.runtime.stop() }, { close: () => b.runtime.stop() }, first, second);
      await a.runtime.start();
      await b.runtime.start();
      const job = { key: 'pg-task', cron: '0 0 1 1 *', timezone: 'UTC' };
      const base = Math.floor(Date.now() / 60_000) * 60_000;
      // Five fire times, each delivered to both instances at once, as two services would.
      for (const i of [4, 3, 2, 1, 0]) {
        await Promise.all([a.runtime.fire(job, base - i * 60_000), b.runtime.fire(job, base - i * 60_000)]);
      }
      assert.equal((await second.executions.list()).length, 5);
      assert.equal(a.runs.calls.length + b.runs.calls.length, 5);
      const { rows } = await admin.query(`SELECT owner FROM ${schema}.claims`);
      assert.equal(rows.length, 5);
      t.diagnostic(`claims won: ${rows.map((r: { owner: string }) => r.owner).join(', ')}`);
    } finally {
      for (const item of opened) await item.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await admin.end();
    }
  });
});

describe('schedules: restart', () => {
  it('keeps every schedule and computes the same nextRun after a restart', async () => {
    const dir = await makeTempDir('taskloom-restart-');
    const ids: string[] = [];
    const snapshot = async (svc: Awaited<ReturnType<typeof startSchedulesService>>) => {
      const statuses = [];
      for (const id of ids) statuses.push((await svc.request('GET', `/api/schedules/${id}/status`)).body);
      const all = (await svc.request('GET', '/api/schedules/status/all')).body;
      return { statuses, all };
    };
    let svc = await startSchedulesService({ dataDir: dir });
    let before;
    try {
      const bodies = [
        { frequency: 'weekly', daysOfWeek: [1, 4], hour: 9, minute: 15, timezone: 'Europe/Berlin' },
        { frequency: 'interval', intervalMinutes: 1439 },
        { frequency: 'monthly', dayOfMonth: 31, hour: 23, minute: 59 },
        { cron: '0 9 * * *', enabled: false },
      ];
      for (const body of bodies) {
        const id = (await svc.request('POST', '/api/tasks', { body: taskBody() })).body.id;
        ids.push(id);
        assert.equal((await svc.request('POST', `/api/schedules/${id}`, { body })).status, 200);
      }
      // One written through the tasks API, never through the schedules endpoints.
      const viaTasks = await svc.request('POST', '/api/tasks', { body: { ...taskBody(), schedule: { enabled: true, frequency: 'daily', hour: 4 } } });
      ids.push(viaTasks.body.id);
      before = await snapshot(svc);
    } finally {
      await svc.close();
    }
    svc = await startSchedulesService({ dataDir: dir });
    try {
      const afterRestart = await snapshot(svc);
      // The one saved through the tasks API was not scheduled yet before (the periodic sync had not run).
      const viaTasksId = ids[4]!;
      const strip = (s: typeof before) => ({
        statuses: s!.statuses.slice(0, 4),
        all: { ...s!.all, scheduledCount: 3, tasks: s!.all.tasks.filter((x: { taskId: string }) => x.taskId !== viaTasksId) },
      });
      assert.deepEqual(strip(afterRestart), strip(before));
      assert.equal(afterRestart.all.scheduledCount, 4);
      assert.equal(afterRestart.statuses[3].nextRun, null, 'the disabled one stays disabled');
      assert.ok(afterRestart.statuses[4].nextRun > Date.now(), 'the one saved through the tasks API is scheduled at start-up');
    } finally {
      await svc.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
