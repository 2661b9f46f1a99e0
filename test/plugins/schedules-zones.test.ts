// A schedule saved without `timezone` gets the zone in effect for the saving instance pinned beside it, so every
// instance reads its cron in that zone (layers/schedule-zones/schedule-zones.ts); the API keeps answering the schedule as sent.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import {
  SCHEDULE_ZONES_KEY, pinScheduleZones, processZone, readPinnedZones, timingFingerprint, type PinnedZones,
} from '../../layers/schedule-zones/schedule-zones.js';
import { createSchedulesRuntime } from '../../plugins/schedules/index.js';
import { createBreeScheduler } from '../../providers/scheduler/bree/index.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { makeTempDir } from '../support/service.js';
import { createRecordingRuns, startSchedulesService, taskBody, type SchedulesService } from '../providers/scheduler/harness.js';

const silent: Logger = { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => silent };
const stamp = new Date().toISOString();
const HERE = processZone();
/** A zone other than this process's, with a whole-hour offset from it at any date (none observes DST). */
const ELSEWHERE = HERE === 'Asia/Tokyo' ? 'Asia/Kolkata' : 'Asia/Tokyo';

/** The next instant after now at hh:mm in `zone` (minute by minute: slow but obviously right). */
function nextAt(zone: string, hour: number, minute: number): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  let t = Math.floor(Date.now() / 60_000) * 60_000 + 60_000;
  while (parts.format(t) !== `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`) t += 60_000;
  return t;
}

/** Runs `body` with this process's zone set to `zone` (what TZ does to a process), then puts it back. */
async function inZone<T>(zone: string, body: () => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

async function jsonStorage(t: TestContext): Promise<StorageProvider> {
  const dir = await makeTempDir('taskloom-zones-');
  const storage = await openJsonStorage({ dir, logger: silent });
  t.after(async () => { await storage.close(); await fs.rm(dir, { recursive: true, force: true }); });
  return storage;
}

function runtimeOn(t: TestContext, storage: StorageProvider, instanceId: string) {
  const scheduler = createBreeScheduler({ logger: silent });
  const runs = createRecordingRuns(() => storage);
  const runtime = createSchedulesRuntime({ storage, scheduler, logger: silent, instanceId, taskRuns: runs, shutdownSignal: new AbortController().signal });
  t.after(() => runtime.stop());
  return { scheduler, runs, runtime };
}

describe('schedule zones: pins', () => {
  it('pin a schedule once: kept for the same timing, moved when the timing changes, dropped for an explicit zone', async (t) => {
    const { settings } = await jsonStorage(t);
    const daily = { frequency: 'daily' as const, hour: 9 };
    const first = await pinScheduleZones(settings, [{ taskId: 'a', schedule: daily }], 'Europe/Berlin');
    assert.deepEqual([first.a!.zone, first.a!.timing], ['Europe/Berlin', timingFingerprint(daily)]);
    const again = await pinScheduleZones(settings, [{ taskId: 'a', schedule: { ...daily } }], 'America/New_York');
    assert.deepEqual(again.a, first.a, 'the same timing saved from another zone keeps its pin');
    const changed = await pinScheduleZones(settings, [{ taskId: 'a', schedule: { ...daily, hour: 10 } }], 'America/New_York');
    assert.equal(changed.a!.zone, 'America/New_York', 'a changed timing is pinned anew');
    const explicit = await pinScheduleZones(settings, [{ taskId: 'a', schedule: { ...daily, timezone: 'UTC' } }], 'Asia/Tokyo');
    assert.equal(explicit.a, undefined);
  });

  it('two instances pinning the same schedule at once agree on one zone (one atomic write wins)', async (t) => {
    const { settings } = await jsonStorage(t);
    const schedule = { cron: '0 9 * * *' };
    const [berlin, newYork] = await Promise.all([
      pinScheduleZones(settings, [{ taskId: 'a', schedule }], 'Europe/Berlin'),
      pinScheduleZones(settings, [{ taskId: 'a', schedule }], 'America/New_York'),
    ]);
    assert.equal(berlin.a!.zone, newYork.a!.zone);
    assert.equal((await readPinnedZones(settings)).a!.zone, berlin.a!.zone);
  });
});

describe('schedule zones: through the API', () => {
  let svc: SchedulesService;
  const api = (method: string, url: string, body?: unknown) => svc.request(method, url, body === undefined ? {} : { body });
  const pins = async () => readPinnedZones(svc.service.services.storage.settings);
  before(async () => { svc = await startSchedulesService(); });
  after(() => svc.close());

  it('POST /api/schedules without a timezone pins this instance\'s zone, and answers the schedule as sent', async () => {
    const id = (await api('POST', '/api/tasks', taskBody())).body.id;
    const res = await api('POST', `/api/schedules/${id}`, { frequency: 'weekly', daysOfWeek: [1], hour: 9 });
    assert.equal(res.status, 200);
    assert.equal(res.body.description, 'At 09:00, only on Monday', 'no zone the caller did not give');
    assert.equal(res.body.schedule.timezone, undefined);
    assert.deepEqual((await api('GET', `/api/tasks/${id}`)).body.schedule, { enabled: true, frequency: 'weekly', daysOfWeek: [1], hour: 9 });
    assert.equal((await pins())[id]!.zone, HERE);
    const status = (await api('GET', `/api/schedules/${id}/status`)).body;
    assert.deepEqual([status.description, status.schedule.timezone], ['At 09:00, only on Monday', undefined]);
  });

  it('POST and PATCH /api/tasks pin a schedule as they save it; saving it unchanged adds no version and keeps the pin', async () => {
    const created = (await api('POST', '/api/tasks', { ...taskBody('Pinned'), schedule: { enabled: true, cron: '30 6 * * *' } })).body;
    const pinned = (await pins())[created.id]!;
    assert.equal(pinned.zone, HERE, 'pinned before any sync');
    const same = (await api('POST', '/api/tasks?version=true', { ...taskBody('Pinned'), id: created.id, schedule: { enabled: true, cron: '30 6 * * *' } })).body;
    assert.deepEqual([same.versions, same.updatedAt], [[], created.updatedAt]);
    assert.deepEqual((await pins())[created.id], pinned);
    await api('PATCH', `/api/tasks/${created.id}`, { schedule: { enabled: true, cron: '45 6 * * *' } });
    const moved = (await pins())[created.id]!;
    assert.equal(moved.timing, timingFingerprint({ cron: '45 6 * * *' }));
    await api('PATCH', `/api/tasks/${created.id}`, { schedule: { enabled: true, cron: '45 6 * * *', timezone: 'UTC' } });
    assert.equal((await pins())[created.id], undefined, 'a schedule with its own zone needs no pin');
  });
});

describe('schedule zones: instances in other zones', () => {
  it('an instance in another zone fires a schedule saved without one at the saving instance\'s time, and shows no zone', async (t) => {
    const storage = await jsonStorage(t);
    await storage.tasks.put({ id: 'daily', name: 'Daily', url: 'https://example.com/', mode: 'scrape', actions: [], createdAt: stamp, updatedAt: stamp });
    const here = runtimeOn(t, storage, 'here');
    await here.runtime.start();
    await here.runtime.service.set('daily', { cron: '0 9 * * *' });
    const expected = nextAt(HERE, 9, 0);
    assert.equal(here.scheduler.nextRun('daily'), expected);
    await inZone(ELSEWHERE, async () => {
      const there = runtimeOn(t, storage, 'there');
      await there.runtime.start();
      assert.deepEqual(there.scheduler.jobs(), [{ key: 'daily', cron: '0 9 * * *', timezone: HERE }], 'the pinned zone, spelled out');
      assert.equal(there.scheduler.nextRun('daily'), expected, 'the same instant as the saving instance');
      const status = await there.runtime.service.status('daily');
      assert.deepEqual([status.description, status.nextRun, status.schedule?.timezone], ['At 09:00', expected, undefined]);
      // A fire planned in the pinned zone is the stored schedule's: it runs (no process zone read to judge it).
      await there.runtime.fire({ key: 'daily', cron: '0 9 * * *', timezone: HERE }, Math.floor(Date.now() / 60_000) * 60_000);
      assert.equal(there.runs.calls.length, 1);
      await there.runtime.stop();
    });
  });

  it('a stored schedule without a pin (an older version saved it) is pinned by the first sync, once', async (t) => {
    const storage = await jsonStorage(t);
    await storage.tasks.put({
      id: 'legacy', name: 'Legacy', url: 'https://example.com/', mode: 'scrape', actions: [], createdAt: stamp, updatedAt: stamp,
      schedule: { enabled: true, frequency: 'daily', hour: 6 },
    });
    const first = runtimeOn(t, storage, 'first');
    await first.runtime.start();
    const pinned = (await storage.settings.get<PinnedZones>(SCHEDULE_ZONES_KEY))!.legacy!;
    assert.equal(pinned.zone, HERE);
    await inZone(ELSEWHERE, async () => {
      const second = runtimeOn(t, storage, 'second');
      await second.runtime.start();
      await second.runtime.syncNow();
      assert.deepEqual((await storage.settings.get<PinnedZones>(SCHEDULE_ZONES_KEY))!.legacy, pinned, 'pinned once, by the first');
      assert.equal(second.scheduler.nextRun('legacy'), first.scheduler.nextRun('legacy'));
      await second.runtime.stop();
    });
  });
});
