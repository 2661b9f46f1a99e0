import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSchedulesService, taskBody, type SchedulesService } from '../providers/scheduler/harness.js';

/** The next instant after now whose UTC parts pass `match` (a minute-by-minute search: slow but obviously right). */
function nextUtc(match: (d: Date) => boolean): number {
  let t = Math.floor(Date.now() / 60_000) * 60_000 + 60_000;
  while (!match(new Date(t))) t += 60_000;
  return t;
}
const mondayNine = () => nextUtc((d) => d.getUTCDay() === 1 && d.getUTCHours() === 9 && d.getUTCMinutes() === 0);

let svc: SchedulesService;
const api = (method: string, url: string, body?: unknown) => svc.request(method, url, body === undefined ? {} : { body });
const newTask = async (name?: string): Promise<string> => (await api('POST', '/api/tasks', taskBody(name))).body.id;
const WEEKLY = { frequency: 'weekly', daysOfWeek: [1], hour: 9, minute: 0, timezone: 'UTC' };

before(async () => { svc = await startSchedulesService(); });
after(() => svc.close());

describe('schedules: set and read', () => {
  it('POST sets an enabled schedule and answers it with a description and nextRun', async () => {
    const id = await newTask();
    const res = await api('POST', `/api/schedules/${id}`, WEEKLY);
    assert.equal(res.status, 200);
    assert.equal(res.body.description, 'At 09:00, only on Monday (UTC)');
    assert.equal(res.body.nextRun, mondayNine());
    assert.deepEqual(res.body.schedule, { ...WEEKLY, enabled: true, nextRun: mondayNine() });
    const stored = (await api('GET', `/api/tasks/${id}`)).body.schedule;
    assert.deepEqual(stored, { ...WEEKLY, enabled: true }, 'stored on the task, without the live nextRun');
  });

  it('POST keeps the server-maintained fields and ignores them in the body; a non-blank cron wins', async () => {
    const id = await newTask();
    await svc.service.services.storage.tasks.update(id, (t) => ({
      ...t, schedule: { enabled: true, cron: '0 1 * * *', lastRun: '2026-01-01T01:00:00.000Z', lastRunStatus: 'success', lastRunDurationMs: 42 },
    }));
    const res = await api('POST', `/api/schedules/${id}`, {
      frequency: 'daily', hour: 7, cron: '0 3 * * *', lastRun: 'forged', lastRunStatus: 'forged', lastRunDurationMs: 1, nextRun: 5,
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.description, 'At 03:00');
    const { schedule } = res.body;
    assert.equal(schedule.lastRun, '2026-01-01T01:00:00.000Z');
    assert.equal(schedule.lastRunStatus, 'success');
    assert.equal(schedule.lastRunDurationMs, 42);
    assert.equal(schedule.nextRun, res.body.nextRun);
    assert.notEqual(schedule.nextRun, 5);
  });

  it('POST with enabled false saves the schedule without scheduling it (nextRun null)', async () => {
    const id = await newTask();
    const res = await api('POST', `/api/schedules/${id}`, { ...WEEKLY, enabled: false });
    assert.equal(res.status, 200);
    assert.equal(res.body.nextRun, null);
    assert.equal(res.body.schedule.enabled, false);
    const all = await api('GET', '/api/schedules/status/all');
    assert.ok(!all.body.tasks.some((t: { taskId: string }) => t.taskId === id));
  });

  it('GET / lists every task that has a schedule, enabled or not, with taskName, mode and nextRun', async () => {
    const on = await newTask('On');
    const off = await newTask('Off');
    const none = await newTask('None');
    await api('POST', `/api/schedules/${on}`, { frequency: 'daily', hour: 6 });
    await api('POST', `/api/schedules/${off}`, { frequency: 'daily', hour: 6, enabled: false });
    const res = await api('GET', '/api/schedules');
    assert.equal(res.status, 200);
    const byId = new Map(res.body.schedules.map((s: { taskId: string }) => [s.taskId, s]));
    assert.deepEqual(byId.get(on), {
      taskId: on, taskName: 'On', mode: 'scrape',
      schedule: { enabled: true, frequency: 'daily', hour: 6, nextRun: nextUtc((d) => d.getUTCHours() === 6 && d.getUTCMinutes() === 0) },
    });
    assert.deepEqual(byId.get(off), { taskId: off, taskName: 'Off', mode: 'scrape', schedule: { enabled: false, frequency: 'daily', hour: 6, nextRun: null } });
    assert.equal(byId.has(none), false);
  });

  it('GET /{taskId}/status answers the schedule, resolved cron, description, isValid and nextRun', async () => {
    const id = await newTask();
    await api('POST', `/api/schedules/${id}`, WEEKLY);
    const res = await api('GET', `/api/schedules/${id}/status`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      schedule: { ...WEEKLY, enabled: true, nextRun: mondayNine() },
      cron: '0 9 * * 1', description: 'At 09:00, only on Monday (UTC)', isValid: true, nextRun: mondayNine(),
    });
    const bare = await newTask();
    assert.deepEqual((await api('GET', `/api/schedules/${bare}/status`)).body,
      { schedule: null, cron: null, description: 'No schedule', isValid: false, nextRun: null });
  });

  it('status reports a stored schedule that is invalid (saved through the tasks API) as isValid false, with the reason', async () => {
    const res = await api('POST', '/api/tasks', { ...taskBody(), schedule: { enabled: true, frequency: 'weekly', daysOfWeek: [] } });
    const status = await api('GET', `/api/schedules/${res.body.id}/status`);
    assert.equal(status.body.isValid, false);
    assert.equal(status.body.nextRun, null);
    assert.match(status.body.error, /daysOfWeek must name at least one day/);
    assert.match(status.body.description, /^Invalid schedule: /);
  });
});

describe('schedules: describe, disable, status/all', () => {
  it('POST /{taskId}/describe validates without saving', async () => {
    const id = await newTask();
    const res = await api('POST', `/api/schedules/${id}/describe`, WEEKLY);
    assert.deepEqual(res.body, { valid: true, description: 'At 09:00, only on Monday (UTC)', cron: '0 9 * * 1', nextRun: mondayNine() });
    assert.equal((await api('GET', `/api/tasks/${id}`)).body.schedule, undefined);
    const off = await api('POST', `/api/schedules/${id}/describe`, { ...WEEKLY, enabled: false });
    assert.equal(off.body.valid, true);
    assert.equal(off.body.nextRun, null, 'a disabled schedule would not fire');
  });

  it('describe answers valid false with the reason that POST would refuse it with', async () => {
    const id = await newTask();
    const body = { frequency: 'daily', hour: 24 };
    const described = await api('POST', `/api/schedules/${id}/describe`, body);
    assert.equal(described.status, 200);
    assert.equal(described.body.valid, false);
    assert.equal(described.body.nextRun, null);
    assert.equal(described.body.cron, null);
    const refused = await api('POST', `/api/schedules/${id}`, body);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'INVALID_SCHEDULE');
    assert.equal(described.body.error, refused.body.details);
    assert.equal(described.body.description, `Invalid schedule: ${refused.body.details}`);
  });

  it('DELETE disables: the schedule stays with enabled false, nextRun null, and leaves status/all', async () => {
    const id = await newTask();
    await api('POST', `/api/schedules/${id}`, WEEKLY);
    const res = await api('DELETE', `/api/schedules/${id}`);
    assert.deepEqual([res.status, res.body], [200, { success: true }]);
    const status = await api('GET', `/api/schedules/${id}/status`);
    assert.deepEqual(status.body.schedule, { ...WEEKLY, enabled: false, nextRun: null });
    assert.equal(status.body.nextRun, null);
    assert.equal(status.body.isValid, true);
    const all = await api('GET', '/api/schedules/status/all');
    assert.ok(!all.body.tasks.some((t: { taskId: string }) => t.taskId === id));
    const bare = await newTask();
    assert.deepEqual((await api('DELETE', `/api/schedules/${bare}`)).body, { success: true });
    assert.equal((await api('GET', `/api/tasks/${bare}`)).body.schedule, undefined, 'nothing to disable: nothing created');
  });

  it('GET /status/all answers running, scheduledCount and each scheduled task with its cron and ISO nextRun, soonest first', async () => {
    const a = await newTask();
    const b = await newTask();
    await api('POST', `/api/schedules/${a}`, WEEKLY);
    await api('POST', `/api/schedules/${b}`, { frequency: 'interval', intervalMinutes: 7 });
    const res = await api('GET', '/api/schedules/status/all');
    assert.equal(res.status, 200);
    assert.equal(res.body.running, true);
    assert.equal(res.body.scheduledCount, res.body.tasks.length);
    const entry = (id: string) => res.body.tasks.find((t: { taskId: string }) => t.taskId === id);
    assert.deepEqual(entry(a), { taskId: a, cron: '0 9 * * 1', nextRun: new Date(mondayNine()).toISOString() });
    assert.equal(entry(b).cron, null, 'a 7-minute interval has no cron');
    assert.equal(Date.parse(entry(b).nextRun) % 420_000, 0);
    const times = res.body.tasks.map((t: { nextRun: string }) => Date.parse(t.nextRun));
    assert.deepEqual(times, [...times].sort((x, y) => x - y));
  });

  it('a task whose id is "status" keeps its own status route', async () => {
    await api('POST', '/api/tasks', { ...taskBody(), id: 'status' });
    await api('POST', '/api/schedules/status', WEEKLY);
    const res = await api('GET', '/api/schedules/status/status');
    assert.equal(res.status, 200);
    assert.equal(res.body.cron, '0 9 * * 1');
  });

  it('answers 404 TASK_NOT_FOUND to every operation on an unknown task, before judging the payload', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/schedules/nope', WEEKLY], ['POST', '/api/schedules/nope', { hour: 'nine' }], ['DELETE', '/api/schedules/nope', undefined],
      ['GET', '/api/schedules/nope/status', undefined], ['POST', '/api/schedules/nope/describe', WEEKLY],
    ] as const) {
      const res = await api(method, url, body);
      assert.equal(res.status, 404, `${method} ${url}`);
      assert.deepEqual(res.body, { error: 'TASK_NOT_FOUND', details: 'Task nope not found', requestId: res.headers.get('x-request-id') });
    }
  });
});

describe('schedules: authentication', () => {
  it('answers 401 to an anonymous caller on every schedules route', async () => {
    const guarded = await startSchedulesService({ env: { AUTH_DISABLED: 'false' } });
    try {
      for (const [method, url] of [
        ['GET', '/api/schedules'], ['POST', '/api/schedules/t1'], ['DELETE', '/api/schedules/t1'],
        ['GET', '/api/schedules/t1/status'], ['POST', '/api/schedules/t1/describe'], ['GET', '/api/schedules/status/all'],
      ] as const) {
        const res = await guarded.request(method, url, method === 'POST' ? { body: WEEKLY } : {});
        assert.equal(res.status, 401, `${method} ${url}`);
      }
    } finally {
      await guarded.close();
    }
  });
});
