// The bar every scheduler provider meets: `schedulerContract('my-scheduler', factory)`, the factory building a fresh
// scheduler (worked example: taskloom's test/providers/scheduler/bree.test.ts). It runs on node:test's mocked clock (setTimeout,
// setInterval, Date), which a provider must time its fires with: times are exact and months pass in a moment. A
// scheduler with `sharedFires` also meets scheduler-shared.contract.ts (an engine, a peer, a process killed -9).
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { JobTiming, Scheduler, ScheduledJob } from '../kernel/contracts/scheduler.js';
import { Errors } from '../kernel/errors.js';
import type { SchedulerChildSpec } from './scheduler-child.js';
import { sharedFiresCases } from './scheduler-shared.contract.js';

export interface SchedulerFixture {
  scheduler: Scheduler;
  /** Stops and closes everything the fixture opened (peers included). */
  close(): Promise<void>;
  /**
   * Resolves once what is due on the (mocked) clock has happened: fires handed to an engine have reached their
   * handlers, and fires whose handlers settled have ended in it. Default: a few immediates, for a scheduler that
   * calls its handler in the timer itself.
   */
  settle?(): Promise<void>;
  /** sharedFires: another scheduler on the same engine and fires, as another instance of the service has one. */
  peer?(): Promise<Scheduler>;
  /** sharedFires: how a child process opens a scheduler sharing these fires, for the kill -9 case. */
  child?: SchedulerChildSpec;
}
export type SchedulerFactory = () => Promise<SchedulerFixture>;

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const at = (text: string) => Date.parse(text);
/** Lets promises, next-ticks and immediates run (they are not mocked). */
const settle = async () => { for (let i = 0; i < 8; i += 1) await new Promise((resolve) => setImmediate(resolve)); };

/** A scheduler on a mocked clock set to `startIso`, and what it fired. */
async function setup(t: TestContext, factory: SchedulerFactory, startIso: string) {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: at(startIso) });
  const fixture = await factory();
  // Closed on the real clock: an engine's shutdown may wait on timers of its own.
  t.after(async () => {
    t.mock.timers.reset();
    await fixture.close();
  });
  const fires: Array<{ key: string; planned: number; firedAt: number }> = [];
  const { scheduler } = fixture;
  const start = (onFire?: (job: ScheduledJob) => void) => scheduler.start((job, planned) => {
    fires.push({ key: job.key, planned, firedAt: Date.now() });
    onFire?.(job);
  });
  const settleAll = async () => {
    await settle();
    if (fixture.settle) {
      await fixture.settle();
      await settle();
    }
  };
  /** Moves the clock to `targetMs` in steps (at most the gap between two fires), letting the scheduler react. */
  const advanceTo = async (targetMs: number, stepMs = MINUTE) => {
    await settleAll();
    while (Date.now() < targetMs) {
      t.mock.timers.tick(Math.min(targetMs - Date.now(), stepMs));
      await settleAll();
    }
  };
  return { fixture, scheduler, fires, start, advanceTo };
}

/** [what it shows, timing, after (UTC), the fire times expected (UTC)] */
const FIRE_TIMES: Array<[string, JobTiming, string, string[]]> = [
  ['lists fire times strictly after the given instant', { cron: '0 9 * * *', timezone: 'UTC' }, '2026-01-01T09:00:00Z',
    ['2026-01-02T09:00Z', '2026-01-03T09:00Z']],
  ['includes a fire one millisecond away', { cron: '0 9 * * *', timezone: 'UTC' }, '2026-01-01T08:59:59.999Z', ['2026-01-01T09:00Z']],
  ['skips months without day 31 (never moved to the last day)', { cron: '0 9 31 * *', timezone: 'UTC' }, '2026-01-31T10:00:00Z',
    ['2026-03-31T09:00Z', '2026-05-31T09:00Z', '2026-07-31T09:00Z', '2026-08-31T09:00Z', '2026-10-31T09:00Z', '2026-12-31T09:00Z']],
  ['keeps 29 February for leap years', { cron: '0 0 29 2 *', timezone: 'UTC' }, '2026-03-01T00:00:00Z', ['2028-02-29T00:00Z', '2032-02-29T00:00Z']],
  ['crosses month ends in a time zone (midnight on the 1st in Berlin is the day before in UTC)',
    { cron: '0 0 1 * *', timezone: 'Europe/Berlin' }, '2026-01-15T00:00:00Z', ['2026-01-31T23:00Z', '2026-02-28T23:00Z', '2026-03-31T22:00Z']],
  // 02:30 does not exist on 29 March: 03:00 CEST, the first valid time after the gap.
  ['DST spring forward in Europe/Berlin: a daily 02:30 fires at 03:00 that day', { cron: '30 2 * * *', timezone: 'Europe/Berlin' },
    '2026-03-27T12:00:00Z', ['2026-03-28T01:30Z', '2026-03-29T01:00Z', '2026-03-30T00:30Z', '2026-03-31T00:30Z']],
  // 02:30 happens twice on 25 October: fired once, at the first (CEST).
  ['DST fall back in Europe/Berlin: a daily 02:30 fires once that day', { cron: '30 2 * * *', timezone: 'Europe/Berlin' },
    '2026-10-23T12:00:00Z', ['2026-10-24T00:30Z', '2026-10-25T00:30Z', '2026-10-26T01:30Z', '2026-10-27T01:30Z']],
  ['DST fall back: step times fire on both occurrences of the repeated hour', { cron: '*/30 * * * *', timezone: 'Europe/Berlin' },
    '2026-10-25T00:15:00Z', ['2026-10-25T00:30Z', '2026-10-25T01:00Z', '2026-10-25T01:30Z', '2026-10-25T02:00Z']],
  ['DST spring forward: step times skip the missing hour', { cron: '*/30 * * * *', timezone: 'Europe/Berlin' },
    '2026-03-29T00:45:00Z', ['2026-03-29T01:00Z', '2026-03-29T01:30Z']],
];

export function schedulerContract(name: string, factory: SchedulerFactory): void {
  describe(`scheduler contract: ${name}`, () => {
    describe('fire times (upcoming)', () => {
      for (const [name, timing, from, expected] of FIRE_TIMES) {
        it(name, async (t) => {
          const { scheduler } = await setup(t, factory, '2026-01-01T00:00:00Z');
          assert.deepEqual(scheduler.upcoming(timing, at(from), expected.length).map(iso), expected.map((e) => new Date(e).toISOString()));
        });
      }

      it('counts an interval in whole periods from the epoch, the same series after any restart', async (t) => {
        const { scheduler } = await setup(t, factory, '2026-01-01T00:00:00Z');
        for (const minutes of [1, 7, 90, 1440]) {
          const period = minutes * MINUTE;
          const fires = scheduler.upcoming({ intervalMinutes: minutes }, at('2026-05-17T13:41:12.345Z'), 3);
          assert.ok(fires[0]! > at('2026-05-17T13:41:12.345Z') && fires[0]! - at('2026-05-17T13:41:12.345Z') <= period);
          for (const [i, fire] of fires.entries()) {
            assert.equal(fire % period, 0, `${minutes} min: ${iso(fire)} is not a whole period from the epoch`);
            if (i > 0) assert.equal(fire - fires[i - 1]!, period);
          }
        }
      });

      it('refuses unusable timings with INVALID_SCHEDULE and a reason', async (t) => {
        const { scheduler } = await setup(t, factory, '2026-01-01T00:00:00Z');
        const unusable: Array<[JobTiming, RegExp]> = [
          [{ cron: 'every day' }, /five fields/], [{ cron: '* * * *' }, /five fields/], [{ cron: '0 0 * * * *' }, /five fields/],
          [{ cron: '61 * * * *' }, /minute/], [{ cron: '0 25 * * *' }, /hour/], [{ cron: '0 0 30 2 *' }, /never fires/],
          [{ cron: '0 9 * * *', timezone: 'Mars/Olympus' }, /Mars\/Olympus/],
          [{ intervalMinutes: 0 }, /intervalMinutes/], [{ intervalMinutes: 1441 }, /intervalMinutes/], [{ intervalMinutes: 1.5 }, /intervalMinutes/],
        ];
        for (const [timing, reason] of unusable) {
          assert.throws(() => scheduler.upcoming(timing, Date.now()), (error: unknown) =>
            Errors.INVALID_SCHEDULE.is(error) && reason.test(error.message), `${JSON.stringify(timing)}: INVALID_SCHEDULE matching ${reason}`);
        }
        await assert.rejects(scheduler.upsert({ key: 'bad', cron: 'nope' }), (e: unknown) => Errors.INVALID_SCHEDULE.is(e));
        assert.deepEqual(scheduler.jobs(), []);
      });
    });

    describe('firing', () => {
      it('has nextRun only while started; fires exactly then, never a millisecond before, and plans the next', async (t) => {
        const { scheduler, fires, start, advanceTo } = await setup(t, factory, '2026-04-01T10:02:30Z');
        await scheduler.upsert({ key: 'a', cron: '*/5 * * * *' });
        assert.deepEqual([scheduler.running, scheduler.nextRun('a')], [false, null]);
        await start();
        const first = scheduler.nextRun('a')!;
        assert.deepEqual([scheduler.running, first, scheduler.nextRun('unknown')], [true, at('2026-04-01T10:05:00Z'), null]);
        await advanceTo(first - 1);
        assert.equal(fires.length, 0, 'nothing fires a millisecond early');
        await advanceTo(first);
        assert.deepEqual(fires, [{ key: 'a', planned: first, firedAt: first }]);
        assert.equal(scheduler.nextRun('a'), first + 5 * MINUTE);
        await advanceTo(first + 5 * MINUTE);
        assert.deepEqual(fires.map((f) => iso(f.planned)), ['2026-04-01T10:05:00.000Z', '2026-04-01T10:10:00.000Z']);
      });

      it('fires a Berlin daily 02:30 across both DST changes exactly when nextRun said', async (t) => {
        const { scheduler, fires, start, advanceTo } = await setup(t, factory, '2026-03-27T12:00:00Z');
        await scheduler.upsert({ key: 'dst', cron: '30 2 * * *', timezone: 'Europe/Berlin' });
        await start();
        const promised: number[] = [];
        for (let i = 0; i < 3; i += 1) {
          promised.push(scheduler.nextRun('dst')!);
          await advanceTo(promised.at(-1)!, 30 * MINUTE);
        }
        assert.deepEqual(promised.map(iso), ['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
        assert.deepEqual(fires.map((f) => f.planned), promised);
        assert.deepEqual(fires.map((f) => f.firedAt), promised);
      });

      it('fires an interval job on its epoch multiples', async (t) => {
        const { scheduler, fires, start, advanceTo } = await setup(t, factory, '2026-04-01T10:00:00Z');
        await scheduler.upsert({ key: 'every7', intervalMinutes: 7 });
        await start();
        await advanceTo(at('2026-04-01T10:30:00Z'));
        assert.equal(fires.length, 4);
        for (const fire of fires) assert.equal(fire.planned % (7 * MINUTE), 0);
      });

      it('replaces a job on upsert (the old time never fires) and stops one on remove', async (t) => {
        const { scheduler, fires, start, advanceTo } = await setup(t, factory, '2026-04-01T08:00:00Z');
        await start();
        await scheduler.upsert({ key: 'a', cron: '0 9 * * *' });
        await scheduler.upsert({ key: 'b', cron: '30 9 * * *' });
        await scheduler.upsert({ key: 'a', cron: '0 10 * * *' });
        assert.equal(scheduler.nextRun('a'), at('2026-04-01T10:00:00Z'));
        assert.equal(await scheduler.remove('b'), true);
        assert.equal(await scheduler.remove('b'), false);
        assert.equal(scheduler.nextRun('b'), null);
        await advanceTo(at('2026-04-01T10:00:00Z'));
        assert.deepEqual(fires.map((f) => `${f.key} ${iso(f.planned)}`), ['a 2026-04-01T10:00:00.000Z']);
        assert.deepEqual(scheduler.jobs(), [{ key: 'a', cron: '0 10 * * *' }]);
      });

      it('skips what falls due while stopped, and plans from now when started again', async (t) => {
        const { scheduler, fires, start, advanceTo } = await setup(t, factory, '2026-04-01T10:02:30Z');
        await scheduler.upsert({ key: 'a', cron: '*/5 * * * *' });
        await start();
        await advanceTo(at('2026-04-01T10:05:00Z'));
        await scheduler.stop();
        await scheduler.stop();
        assert.equal(scheduler.running, false);
        await advanceTo(at('2026-04-01T10:21:00Z'));
        assert.equal(fires.length, 1);
        await start();
        await advanceTo(at('2026-04-01T10:24:59.999Z'));
        assert.equal(fires.length, 1, 'the fires missed while stopped are not replayed');
        assert.equal(scheduler.nextRun('a'), at('2026-04-01T10:25:00Z'));
      });

      it('keeps firing after the handler throws; refuses a second start; hands out copies', async (t) => {
        const { scheduler, fires, start, advanceTo } = await setup(t, factory, '2026-04-01T10:00:30Z');
        await scheduler.upsert({ key: 'a', cron: '* * * * *' });
        await start(() => { throw new Error('handler failure'); });
        await assert.rejects(start(), /already running/);
        await advanceTo(at('2026-04-01T10:03:00Z'));
        assert.equal(fires.length, 3);
        const [job] = scheduler.jobs();
        (job as { cron: string }).cron = '0 0 1 1 *';
        assert.deepEqual(scheduler.jobs(), [{ key: 'a', cron: '* * * * *' }]);
      });

      it('fires each of many jobs due in the same minute once', async (t) => {
        const { scheduler, fires, start, advanceTo } = await setup(t, factory, '2026-04-01T10:00:30Z');
        for (let i = 0; i < 200; i += 1) await scheduler.upsert({ key: `job${i}`, cron: '* * * * *' });
        await start();
        await advanceTo(at('2026-04-01T10:01:00Z'));
        await advanceTo(at('2026-04-01T10:02:00Z'));
        assert.equal(fires.length, 400);
        assert.equal(new Set(fires.map((f) => `${f.key}@${f.planned}`)).size, 400);
        assert.ok(fires.every((f) => f.firedAt === f.planned));
      });
    });

    sharedFiresCases(name, factory, (t, startIso) => setup(t, factory, startIso));
  });
}
