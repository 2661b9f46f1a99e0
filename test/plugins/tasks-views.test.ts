import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as pause } from 'node:timers/promises';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const BASE = { name: 'Listed', url: 'https://example.com', mode: 'agent', actions: [{ type: 'wait', value: '10' }] };

let svc: TestService;
let cookie: string;
// The dashboard's way in: the session cookie.
const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { cookie, ...options });
const create = async (body: Record<string, unknown>) => {
  const res = await api('POST', '/api/tasks', { body });
  assert.equal(res.status, 200, res.text);
  await pause(3); // distinct updatedAt values, so "newest first" is well defined
  return res.body;
};

before(async () => {
  svc = await startService();
  ({ cookie } = await setupAdmin(svc));
});
after(async () => { await svc.close(); });

describe('tasks: GET /api/tasks and /api/tasks/list', () => {
  let described: any;
  let plain: any;
  let scheduled: any;
  before(async () => {
    described = await create({ ...BASE, name: 'A', description: 'has one', variables: { x: 1 } });
    plain = await create({ ...BASE, name: 'B' });
    await api('PATCH', `/api/tasks/${plain.id}`, { body: { name: 'B2' } }); // B now has a version
    await pause(3);
    scheduled = await create({ ...BASE, name: 'C', schedule: { enabled: true, cron: '0 9 * * 1' } });
  });

  it('lists every task with its configuration but without versions, newest updatedAt first', async () => {
    const res = await api('GET', '/api/tasks');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((t: any) => t.name), ['C', 'B2', 'A']);
    for (const task of res.body) assert.equal('versions' in task, false);
    const a = res.body[2];
    assert.deepEqual(a, { ...BASE, name: 'A', description: 'has one', variables: { x: 1 }, id: described.id, createdAt: described.createdAt, updatedAt: described.updatedAt });
    assert.equal('description' in res.body[1], false);
  });

  it('answers /list entries with the light fields, description only when set', async () => {
    const res = await api('GET', '/api/tasks/list');
    assert.equal(res.status, 200);
    const [c, b, a] = res.body.tasks;
    assert.deepEqual(a, {
      id: described.id, name: 'A', description: 'has one', url: BASE.url, mode: 'agent',
      updatedAt: described.updatedAt, createdAt: described.createdAt, actionCount: 1,
    });
    assert.deepEqual(Object.keys(b).sort(), ['actionCount', 'createdAt', 'id', 'mode', 'name', 'updatedAt', 'url']);
    assert.equal(b.id, plain.id);
    assert.deepEqual(c.schedule, { enabled: true, cron: '0 9 * * 1' });
    assert.equal(c.id, scheduled.id);
  });

  it('touch sets updatedAt to now and changes nothing else, moving the task to the top', async () => {
    const before = (await api('GET', `/api/tasks/${described.id}`)).body;
    await pause(5);
    const res = await api('POST', `/api/tasks/${described.id}/touch`);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['success', 'updatedAt']);
    assert.equal(res.body.success, true);
    assert.ok(res.body.updatedAt > before.updatedAt);
    const after = (await api('GET', `/api/tasks/${described.id}`)).body;
    assert.equal(after.updatedAt, res.body.updatedAt);
    assert.deepEqual({ ...after, updatedAt: before.updatedAt }, before);
    assert.equal((await api('GET', '/api/tasks')).body[0].id, described.id);
    assert.equal((await api('GET', '/api/tasks/list')).body.tasks[0].id, described.id);
  });
});

describe('tasks: get, delete and 404s', () => {
  it('GET /api/tasks/{id} answers the whole task with its versions', async () => {
    const task = await create({ ...BASE, description: 'd' });
    const patched = (await api('PATCH', `/api/tasks/${task.id}`, { body: { name: 'Renamed' } })).body;
    const res = await api('GET', `/api/tasks/${task.id}`);
    assert.deepEqual([res.status, res.body], [200, patched]);
    assert.equal(res.body.versions.length, 1);
  });

  it('deletes a task, then answers 404 TASK_NOT_FOUND for every operation on it', async () => {
    const task = await create(BASE);
    const del = await api('DELETE', `/api/tasks/${task.id}`);
    assert.deepEqual([del.status, del.body], [200, { success: true }]);
    const attempts: [string, string, RequestOptions?][] = [
      ['GET', `/api/tasks/${task.id}`],
      ['DELETE', `/api/tasks/${task.id}`],
      ['PATCH', `/api/tasks/${task.id}`, { body: { name: 'x' } }],
      ['POST', `/api/tasks/${task.id}/touch`],
      ['POST', `/api/tasks/${task.id}/versions/ver_x/restore`],
    ];
    for (const [method, url, options] of attempts) {
      const res = await api(method, url, options);
      assert.equal(res.status, 404, `${method} ${url}`);
      assert.equal(res.body.error, 'TASK_NOT_FOUND', `${method} ${url}`);
      assert.match(res.body.details, new RegExp(task.id), `${method} ${url}`);
    }
    assert.equal((await api('GET', '/api/tasks')).body.some((t: any) => t.id === task.id), false);
  });
});

describe('tasks: restore a version', () => {
  it('snapshots the current task, then restores the version, keeping id, createdAt and history', async () => {
    const v1 = await create({ ...BASE, name: 'v1', description: 'first', variables: { n: 1 } });
    const v2 = (await api('PATCH', `/api/tasks/${v1.id}`, {
      body: { name: 'v2', description: null, mode: 'scrape', variables: { n: 2 }, userAgent: 'ua' },
    })).body;
    const versionId = v2.versions[0].id;
    await pause(5);
    const res = await api('POST', `/api/tasks/${v1.id}/versions/${versionId}/restore`);
    assert.equal(res.status, 200, res.text);
    const restored = res.body;
    assert.deepEqual(without(restored, 'updatedAt', 'versions'), without(v1, 'updatedAt', 'versions'));
    assert.equal('userAgent' in restored, false, 'fields the version did not have are gone');
    assert.ok(restored.updatedAt > v2.updatedAt);
    assert.equal(restored.versions.length, 2);
    assert.deepEqual(restored.versions[0].snapshot, without(v2, 'versions'));
    assert.equal(restored.versions[1].id, versionId);
    assert.deepEqual((await api('GET', `/api/tasks/${v1.id}`)).body, restored);
  });

  it('answers 404 NOT_FOUND naming the version when the task has no such version', async () => {
    const task = await create(BASE);
    const res = await api('POST', `/api/tasks/${task.id}/versions/ver_nope/restore`);
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'NOT_FOUND');
    assert.match(res.body.details, /ver_nope/);
    assert.deepEqual((await api('GET', `/api/tasks/${task.id}`)).body.versions, [], 'nothing was snapshotted');
  });
});

function without(task: Record<string, unknown>, ...keys: string[]) {
  return Object.fromEntries(Object.entries(task).filter(([k]) => !keys.includes(k)));
}
