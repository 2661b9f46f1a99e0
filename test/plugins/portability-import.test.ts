import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TaskRecord } from '../../kernel/contracts/records.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const WEEKLY = { frequency: 'weekly', daysOfWeek: [1, 4], hour: 9, minute: 30, timezone: 'Europe/Berlin' };

interface Side { svc: TestService; apiKey: string }
let source: Side;
let target: Side;
let bundle: { format: string; formatVersion: number; exportedAt: string; tasks: TaskRecord[] };
const ids: Record<'scheduled' | 'paused' | 'plain', string> = { scheduled: '', paused: '', plain: '' };

const api = (side: Side, method: string, url: string, options: RequestOptions = {}) => side.svc.request(method, url, { apiKey: side.apiKey, ...options });
const importInto = (side: Side, body: unknown, query = '') => api(side, 'POST', `/api/tasks/import${query}`, { body });
const storedIds = async (side: Side) => (await side.svc.service.services.storage.tasks.list()).map((t) => t.id).sort();
const task = (name: string, extra: Record<string, unknown> = {}) => ({
  name, url: 'https://example.com/{$page}', mode: 'agent',
  actions: [{ type: 'navigate', value: 'https://example.com/' }, { type: 'click', selector: '#go', timeoutMs: 5000 }],
  variables: { page: 'deals', limit: 3 }, ...extra,
});

async function side(): Promise<Side> {
  const svc = await startService();
  return { svc, apiKey: (await setupAdmin(svc)).apiKey };
}

before(async () => {
  [source, target] = await Promise.all([side(), side()]);
  // A task with a history (two overwrites that snapshot) and an enabled schedule; one whose schedule is disabled; a plain one.
  ids.scheduled = (await api(source, 'POST', '/api/tasks', { body: task('Prices', { extractionScript: 'return 1', viewport: { width: 800, height: 600 } }) })).body.id;
  await api(source, 'PATCH', `/api/tasks/${ids.scheduled}`, { body: { description: 'v2' } });
  await api(source, 'PATCH', `/api/tasks/${ids.scheduled}`, { body: { description: 'v3' } });
  assert.equal((await api(source, 'POST', `/api/schedules/${ids.scheduled}`, { body: WEEKLY })).status, 200);
  ids.paused = (await api(source, 'POST', '/api/tasks', { body: task('Paused') })).body.id;
  await api(source, 'POST', `/api/schedules/${ids.paused}`, { body: { cron: '0 6 * * *' } });
  await api(source, 'DELETE', `/api/schedules/${ids.paused}`);
  ids.plain = (await api(source, 'POST', '/api/tasks', { body: task('Plain', { mode: 'scrape' }) })).body.id;
  const exported = await api(source, 'GET', '/api/tasks/export');
  assert.equal(exported.status, 200);
  assert.match(exported.headers.get('content-disposition')!, /^attachment; filename="taskloom-tasks-[\dT-]+Z\.json"$/);
  bundle = exported.body;
});
after(async () => { await Promise.all([source.svc.close(), target.svc.close()]); });

describe('portability: task bundle export and import', () => {
  it('exports every task as stored, with its versions and its schedule (without the live nextRun)', async () => {
    assert.deepEqual([bundle.format, bundle.formatVersion], ['taskloom.tasks', 1]);
    assert.ok(!Number.isNaN(Date.parse(bundle.exportedAt)));
    for (const exported of bundle.tasks) {
      assert.deepEqual(exported, (await api(source, 'GET', `/api/tasks/${exported.id}`)).body);
    }
    const scheduled = bundle.tasks.find((t) => t.id === ids.scheduled)!;
    assert.equal(scheduled.versions!.length, 2);
    assert.deepEqual(scheduled.schedule, { ...WEEKLY, enabled: true });
    assert.equal(bundle.tasks.find((t) => t.id === ids.paused)!.schedule!.enabled, false);
  });

  it('imports the bundle into a fresh service: same tasks, versions and schedules, the enabled one scheduled at once', async () => {
    const res = await importInto(target, bundle);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.created.sort(), Object.values(ids).sort());
    assert.deepEqual([res.body.replaced, res.body.skipped, res.body.scheduled, res.body.notScheduled], [[], [], [ids.scheduled], []]);
    for (const exported of bundle.tasks) {
      assert.deepEqual((await api(target, 'GET', `/api/tasks/${exported.id}`)).body, exported);
    }
    const armed = (await api(target, 'GET', '/api/schedules/status/all')).body;
    const sourceArmed = (await api(source, 'GET', '/api/schedules/status/all')).body;
    assert.deepEqual(armed.tasks, sourceArmed.tasks, 'the same job, firing at the same next time');
    assert.deepEqual(armed.tasks.map((t: { taskId: string }) => t.taskId), [ids.scheduled]);
    const status = (await api(target, 'GET', `/api/schedules/${ids.scheduled}/status`)).body;
    assert.deepEqual([status.isValid, status.description], [true, 'At 09:30, only on Monday and Thursday (Europe/Berlin)']);
  });

  it('refuses ids that exist already with 409 IMPORT_CONFLICT naming them, and changes nothing', async () => {
    await api(target, 'PATCH', `/api/tasks/${ids.plain}`, { body: { name: 'Changed here' } });
    const before = await storedIds(target);
    const res = await importInto(target, bundle);
    assert.deepEqual([res.status, res.body.error], [409, 'IMPORT_CONFLICT']);
    for (const id of Object.values(ids)) assert.ok(res.body.details.includes(id), `${id} named in ${res.body.details}`);
    assert.match(res.body.details, /\?onConflict=skip .* \?onConflict=replace/);
    assert.deepEqual(await storedIds(target), before);
    assert.equal((await api(target, 'GET', `/api/tasks/${ids.plain}`)).body.name, 'Changed here');
  });

  it('skips existing tasks with ?onConflict=skip and imports the new ones', async () => {
    const fresh = { ...bundle.tasks.find((t) => t.id === ids.plain)!, id: 'task_imported_new', name: 'New one' };
    const res = await importInto(target, { ...bundle, tasks: [...bundle.tasks, fresh] }, '?onConflict=skip');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.created, res.body.replaced, res.body.skipped.sort()], [['task_imported_new'], [], Object.values(ids).sort()]);
    assert.equal((await api(target, 'GET', `/api/tasks/${ids.plain}`)).body.name, 'Changed here');
    assert.equal((await api(target, 'GET', '/api/tasks/task_imported_new')).body.name, 'New one');
  });

  it('replaces existing tasks with ?onConflict=replace', async () => {
    const res = await importInto(target, bundle, '?onConflict=replace');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.created, res.body.replaced.sort(), res.body.scheduled], [[], Object.values(ids).sort(), [ids.scheduled]]);
    assert.equal((await api(target, 'GET', `/api/tasks/${ids.plain}`)).body.name, 'Plain');
    assert.equal((await api(target, 'GET', '/api/tasks/task_imported_new')).status, 200, 'tasks not in the bundle stay');
  });

  it('validates the whole bundle before writing: one bad task and nothing of the bundle is stored', async () => {
    const good = (id: string) => ({ ...bundle.tasks.find((t) => t.id === ids.plain)!, id });
    const before = await storedIds(target);
    const cases: Array<[unknown, RegExp]> = [
      [{ ...bundle, tasks: [good('task_a'), { ...good('task_b'), mode: 'fly' }] }, /body\.tasks\.1\.mode must be one of agent, scrape, headful/],
      [{ ...bundle, tasks: [good('task_a'), { ...good('task_b'), url: 'ftp://example.com/' }] }, /body\.tasks\.1\.url must be an absolute http or https URL/],
      [{ ...bundle, tasks: [good('task_a'), good('task_b'), good('task_a')] }, /body\.tasks\.2\.id "task_a" appears twice/],
      [{ ...bundle, tasks: [good('task_a'), { ...good('task_b'), actions: [{ type: 'click', selector: 5 }] }] }, /body\.tasks\.1\.actions\.0\.selector/],
      [{ ...bundle, formatVersion: 2, tasks: [good('task_a')] }, /body\.formatVersion/],
      [{ ...bundle, format: 'something.else', tasks: [good('task_a')] }, /body\.format/],
      [{ tasks: [good('task_a')] }, /body\.format/],
    ];
    for (const [body, details] of cases) {
      const res = await importInto(target, body, '?onConflict=replace');
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], res.text);
      assert.match(res.body.details, details);
    }
    assert.deepEqual(await storedIds(target), before);
    const badQuery = await importInto(target, bundle, '?onConflict=merge');
    assert.match(badQuery.body.details, /querystring\.onConflict must be one of fail, skip, replace/);
  });

  it('on a store without putAll (one write per task): undoes the writes already made when a write fails mid-way', async () => {
    const tasks = target.svc.service.services.storage.tasks;
    const snapshot = await tasks.list();
    const put = tasks.put;
    // A third-party store may not offer putAll: the import then writes one by one and undoes on failure.
    Object.assign(tasks, { putAll: undefined });
    let calls = 0;
    tasks.put = async function (doc) {
      calls += 1;
      if (calls === 3) throw new Error('disk full');
      return put.call(this, doc);
    };
    try {
      const newOnes = ['task_x1', 'task_x2'].map((id) => ({ ...bundle.tasks.find((t) => t.id === ids.plain)!, id }));
      const renamed = bundle.tasks.map((t) => ({ ...t, name: `${t.name} (replaced)` }));
      const res = await importInto(target, { ...bundle, tasks: [...newOnes, ...renamed] }, '?onConflict=replace');
      assert.deepEqual([res.status, res.body.error], [500, 'INTERNAL_ERROR']);
      assert.ok(calls > 3, 'the undo ran');
    } finally {
      tasks.put = put;
      delete (tasks as { putAll?: unknown }).putAll; // the store's own method again
    }
    const sortById = (list: TaskRecord[]) => list.sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(sortById(await tasks.list()), sortById(snapshot));
    assert.equal(typeof tasks.putAll, 'function');
  });

  it('writes the bundle with one putAll when the store offers it, and nothing when that write fails', async () => {
    const tasks = target.svc.service.services.storage.tasks;
    const snapshot = await tasks.list();
    const putAll = tasks.putAll!;
    const batches: number[] = [];
    tasks.putAll = async function (docs) {
      batches.push(docs.length);
      throw new Error('disk full');
    };
    try {
      const renamed = bundle.tasks.map((t) => ({ ...t, name: `${t.name} (replaced)` }));
      const res = await importInto(target, { ...bundle, tasks: [{ ...renamed[0]!, id: 'task_y1' }, ...renamed] }, '?onConflict=replace');
      assert.deepEqual([res.status, res.body.error], [500, 'INTERNAL_ERROR']);
      assert.deepEqual(batches, [bundle.tasks.length + 1], 'one write for the whole bundle');
    } finally {
      delete (tasks as { putAll?: unknown }).putAll;
    }
    assert.equal(tasks.putAll, putAll);
    const sortById = (list: TaskRecord[]) => list.sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(sortById(await tasks.list()), sortById(snapshot));
  });

  it('keeps a schedule the scheduler refuses, and says so', async () => {
    const odd = { ...bundle.tasks.find((t) => t.id === ids.plain)!, id: 'task_bad_cron', schedule: { enabled: true, cron: '61 * * * *' } };
    const res = await importInto(target, { ...bundle, tasks: [odd] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.scheduled, []);
    assert.equal(res.body.notScheduled.length, 1);
    assert.deepEqual([res.body.notScheduled[0].taskId, res.body.notScheduled[0].error], ['task_bad_cron', 'INVALID_SCHEDULE']);
    assert.deepEqual((await api(target, 'GET', '/api/tasks/task_bad_cron')).body.schedule, odd.schedule);
  });

  it('asks anonymous callers for credentials on both endpoints', async () => {
    for (const [method, url] of [['GET', '/api/tasks/export'], ['POST', '/api/tasks/import']] as const) {
      const res = await target.svc.request(method, url, method === 'POST' ? { body: bundle } : {});
      assert.deepEqual([res.status, res.body.error], [401, 'UNAUTHORIZED'], url);
    }
  });
});
