// Schedules on the queue's engine (QUEUE=pg-boss, so SCHEDULER=pg-boss), two real processes on one PostgreSQL
// database each time, real Chromium:
// - an every-minute schedule over three minutes runs exactly three times although the instance holding the
//   middle fire is killed -9 while it holds it (the engine hands the fire to the other, which runs nothing twice);
// - two instances with different TZ run a daily schedule saved without a zone once, at the saving instance's time.
// About three minutes; the two cases run side by side.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { createCluster, queueUnavailable, until, type Cluster, type Member } from './queue-cluster.js';

const skip = chromiumOrSkip().skip || (await queueUnavailable('pg-boss'));
const MINUTE = 60_000;
const minuteOf = (iso: string) => Math.floor(Date.parse(iso) / MINUTE);

/** Whether `member` logged `message` for the fire planned at `plannedMs` (pino JSON lines). */
const logged = (member: Member, message: string, plannedMs: number) => member.proc.output().split('\n')
  .some((line) => line.includes(`"msg":"${message}"`) && line.includes(new Date(plannedMs).toISOString()));

describe('schedules on the pg-boss engine, two instances', { skip, concurrency: true, timeout: 6 * MINUTE }, () => {
  let pages: PagesServer;
  const clusters: Cluster[] = [];
  before(async () => { pages = await startPagesServer(); });
  after(async () => {
    await Promise.all(clusters.map((cluster) => cluster.close()));
    await pages?.close();
  });
  const cluster = async () => {
    const made = await createCluster('pg-boss');
    clusters.push(made);
    return made;
  };
  const createTask = async (on: Member, name: string, actions: object[]) => {
    const res = await on.call('POST', '/api/tasks', { body: { name, url: `${pages.origin}/index.html`, mode: 'agent', actions } });
    assert.equal(res.status, 200, res.text);
    return res.body.id as string;
  };

  it('an every-minute schedule runs exactly three times in three minutes, the holder of the middle fire killed -9', async (t) => {
    const c = await cluster();
    const a = await c.spawn('A');
    const b = await c.spawn('B');
    // Each run takes about 8 s, all the while its fire is held.
    const id = await createTask(a, 'every minute, 8 s', [{ type: 'wait', value: '8000' }]);
    for (const on of [a, b]) assert.equal((await on.call('POST', `/api/schedules/${id}`, { body: { cron: '* * * * *' } })).status, 200);
    const first = Math.ceil((Date.now() + 5_000) / MINUTE); // the first minute both instances have it armed
    const middle = (first + 1) * MINUTE;

    const holder = await until('an instance holds the fire of the middle minute', async () =>
      [a, b].find((member) => logged(member, 'scheduled fire: starting its run', middle)), (found) => found !== undefined, 2 * MINUTE + 20_000);
    const survivor = holder === a ? b : a;
    assert.equal(await holder!.proc.stop('SIGKILL'), null);
    t.diagnostic(`instance ${holder!.name} held the fire of ${new Date(middle).toISOString()} and was killed -9; ${survivor.name} goes on`);

    const history = await until('three scheduled runs, ended', async () => (await survivor.call('GET', `/api/executions?taskId=${id}`)).body as any[],
      (list) => Date.now() > (first + 2) * MINUTE + 20_000 && list.filter((e) => minuteOf(e.queuedAt) >= first && !['queued', 'running'].includes(e.status)).length >= 3,
      4 * MINUTE);
    await sleep(2_000); // a second run of the last minute, were there one, would be recorded by now
    const all = (await survivor.call('GET', `/api/executions?taskId=${id}`)).body as any[];
    assert.ok(all.length >= history.length);
    const perMinute = [first, first + 1, first + 2].map((m) => all.filter((e) => minuteOf(e.queuedAt) === m));
    assert.deepEqual(perMinute.map((list) => list.length), [1, 1, 1], 'one run in each minute, the middle one neither lost nor run twice');
    assert.equal(all.filter((e) => minuteOf(e.queuedAt) >= first).length, 3, JSON.stringify(all.map((e) => [e.queuedAt, e.status])));
    assert.ok(all.every((e) => e.trigger === 'schedule'));
    // The middle run ends `interrupted` if the killed instance was the one running it, else `success`.
    assert.ok(['success', 'interrupted'].includes(perMinute[1]![0].status), perMinute[1]![0].status);
    assert.equal(perMinute[2]![0].status, 'success');
    assert.ok(logged(survivor, 'a fire whose holder stopped is handed on', middle), 'the engine handed the held fire to the survivor');
    assert.ok(logged(survivor, 'scheduled fire: its run was queued already, by the instance that held it before', middle),
      'which found its run queued, and ran nothing');
    t.diagnostic(`middle run: ${perMinute[1]![0].status}; statuses ${perMinute.map((list) => list[0].status).join(', ')}`);
  });

  it('two instances in different time zones run a daily schedule saved without a zone once, at the saving instance\'s time', async (t) => {
    const c = await cluster();
    const tokyo = await c.spawn('tokyo', { TZ: 'Asia/Tokyo' });
    const newYork = await c.spawn('newyork', { TZ: 'America/New_York' });
    const id = await createTask(tokyo, 'daily at a Tokyo time', [{ type: 'javascript', value: 'return document.title' }]);
    // A minute far enough ahead for New York's sync (every 30 s) to pick the schedule up first.
    const target = Math.ceil((Date.now() + 50_000) / MINUTE) * MINUTE;
    const [hour, minute] = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .format(target).split(':').map(Number);
    const cron = `${minute} ${hour} * * *`;
    const saved = await tokyo.call('POST', `/api/schedules/${id}`, { body: { cron } });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual([saved.body.nextRun, saved.body.description.includes('(')], [target, false], saved.text);

    const armed = await until('New York has the schedule armed', async () => (await newYork.call('GET', '/api/schedules/status/all')).body,
      (all: any) => all.tasks.some((task: { taskId: string }) => task.taskId === id), 45_000);
    const there = armed.tasks.find((task: { taskId: string }) => task.taskId === id);
    assert.equal(there.nextRun, new Date(target).toISOString(), 'New York fires it at Tokyo\'s time, not at its own');
    const status = (await newYork.call('GET', `/api/schedules/${id}/status`)).body;
    assert.deepEqual([status.schedule.timezone, status.cron, status.nextRun], [undefined, cron, target]);
    assert.doesNotMatch(status.description, /\(/, 'no zone the caller did not give');

    const runs = await until('the run, ended', async () => (await newYork.call('GET', `/api/executions?taskId=${id}`)).body as any[],
      (list) => Date.now() > target + 15_000 && list.some((e) => !['queued', 'running'].includes(e.status)), 3 * MINUTE);
    await sleep(3_000);
    const all = (await tokyo.call('GET', `/api/executions?taskId=${id}`)).body as any[];
    assert.equal(all.length, 1, `once, not once per zone: ${JSON.stringify(all.map((e) => e.queuedAt))}`);
    assert.deepEqual([all[0].trigger, all[0].status, minuteOf(all[0].queuedAt)], ['schedule', 'success', target / MINUTE]);
    t.diagnostic(`ran at ${all[0].queuedAt} (${runs.length} seen from New York)`);
  });
});
