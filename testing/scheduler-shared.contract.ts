// The scheduler contract's cases for `capabilities.sharedFires` (1.1): schedulers of several processes on one
// engine. Run by schedulerContract; each case says why it is skipped for a scheduler without the capability.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { spawnSchedulerChild } from './scheduler-child.js';
import type { SchedulerFactory, SchedulerFixture } from './scheduler.contract.js';

const MINUTE = 60_000;
const at = (text: string) => Date.parse(text);
const iso = (ms: number) => new Date(ms).toISOString();

export interface SharedSetup {
  fixture: SchedulerFixture;
  /** Moves the mocked clock to `targetMs` in steps, letting the schedulers and their engine react. */
  advanceTo(targetMs: number, stepMs?: number): Promise<void>;
}

/** A reason to skip when the fixture cannot run the shared-fires cases, or undefined. */
function skipReason(fixture: SchedulerFixture, needs: 'peer' | 'child'): string | undefined {
  if (!fixture.scheduler.capabilities.sharedFires) return `${fixture.scheduler.id} has no sharedFires: every process fires its own jobs`;
  if (!fixture[needs]) return `the fixture offers no ${needs === 'peer' ? 'peer scheduler' : 'child process spec'}`;
  return undefined;
}

/** Records the fires of several schedulers, naming which one took each. */
function recorder() {
  const fires: Array<{ by: string; key: string; planned: number }> = [];
  return {
    fires,
    handler: (by: string) => (job: { key: string }, planned: number) => { fires.push({ by, key: job.key, planned }); },
  };
}

export function sharedFiresCases(name: string, factory: SchedulerFactory, setup: (t: TestContext, startIso: string) => Promise<SharedSetup>): void {
  describe(`shared fires (sharedFires): ${name}`, () => {
    it('hands each fire of two schedulers on one engine to one of them, once', async (t) => {
      const { fixture, advanceTo } = await setup(t, '2026-04-01T10:00:30Z');
      const reason = skipReason(fixture, 'peer');
      if (reason) return t.skip(reason);
      const peer = await fixture.peer!();
      const seen = recorder();
      const attempts = new Set<number | undefined>();
      const handler = (by: string) => {
        const record = seen.handler(by);
        return (job: { key: string }, planned: number, delivery?: { attempt: number }) => { attempts.add(delivery?.attempt); record(job, planned); };
      };
      for (const scheduler of [fixture.scheduler, peer]) {
        await scheduler.upsert({ key: 'five', cron: '*/5 * * * *' });
        await scheduler.upsert({ key: 'seven', intervalMinutes: 7 });
      }
      await fixture.scheduler.start(handler('first'));
      await peer.start(handler('peer'));
      await advanceTo(at('2026-04-01T10:30:00Z'));
      assert.deepEqual([...attempts], [1], 'each delivered once, as a first delivery');
      const byFire = seen.fires.map((f) => `${f.key} ${iso(f.planned)}`).sort();
      assert.deepEqual(byFire, [...new Set(byFire)], 'no fire reached two handlers');
      assert.equal(seen.fires.filter((f) => f.key === 'five').length, 6);
      assert.equal(seen.fires.filter((f) => f.key === 'seven').length, 4);
      t.diagnostic(`taken by the first ${seen.fires.filter((f) => f.by === 'first').length}, by the peer ${seen.fires.filter((f) => f.by === 'peer').length}`);
    });

    it('skips the later fires of a job while one is held, in every scheduler, and fires again once it settles', async (t) => {
      const { fixture, advanceTo } = await setup(t, '2026-04-01T10:00:30Z');
      const reason = skipReason(fixture, 'peer');
      if (reason) return t.skip(reason);
      const peer = await fixture.peer!();
      let release = () => {};
      const held = new Promise<void>((resolve) => { release = resolve; });
      const fires: Array<{ key: string; planned: number }> = [];
      const handler = (job: { key: string }, planned: number) => {
        fires.push({ key: job.key, planned });
        return job.key === 'slow' && planned === at('2026-04-01T10:01:00Z') ? held : undefined;
      };
      for (const scheduler of [fixture.scheduler, peer]) {
        await scheduler.upsert({ key: 'slow', cron: '* * * * *' });
        await scheduler.upsert({ key: 'quick', cron: '* * * * *' });
        await scheduler.start(handler);
      }
      const slow = () => fires.filter((f) => f.key === 'slow').map((f) => iso(f.planned));
      await advanceTo(at('2026-04-01T10:03:00Z'));
      assert.deepEqual(slow(), ['2026-04-01T10:01:00.000Z'], 'the fires of 10:02 and 10:03 are skipped while the one of 10:01 is held');
      assert.equal(fires.filter((f) => f.key === 'quick').length, 3, 'another job fires all along');
      release();
      await advanceTo(at('2026-04-01T10:05:00Z'));
      assert.deepEqual(slow(), ['2026-04-01T10:01:00.000Z', '2026-04-01T10:04:00.000Z', '2026-04-01T10:05:00.000Z']);
    });

    it('hands a held fire to another process after the one holding it is killed -9', { timeout: 120_000 }, async (t) => {
      const fixture = await factory();
      t.after(() => fixture.close());
      const reason = skipReason(fixture, 'child');
      if (reason) return t.skip(reason);
      // The child's clock is set to this time; the fire comes at once, whatever the real clock says.
      const plannedMs = Math.ceil(Date.now() / MINUTE) * MINUTE + MINUTE;
      const child = spawnSchedulerChild(fixture.child!, { key: 'crash', cron: '* * * * *' }, plannedMs);
      t.after(() => child.kill());
      assert.equal(await child.took, `crash ${plannedMs}`, 'the child took the fire');
      const fires: Array<{ key: string; planned: number; attempt?: number }> = [];
      // Started after the child took the fire: it only gets it back, it never plans it.
      await fixture.scheduler.start((job, planned, delivery) => { fires.push({ key: job.key, planned, attempt: delivery?.attempt }); });
      child.kill();
      const killedAt = Date.now();
      while (fires.length === 0 && Date.now() - killedAt < 90_000) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(fires, [{ key: 'crash', planned: plannedMs, attempt: 2 }], 'handed on, saying so');
      t.diagnostic(`${name}: handed on ${Date.now() - killedAt} ms after the kill`);
      await fixture.scheduler.stop();
    });
  });
}
