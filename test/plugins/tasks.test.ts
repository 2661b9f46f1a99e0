import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as pause } from 'node:timers/promises';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const BASE = {
  name: 'Prices',
  url: 'https://example.com/shop',
  mode: 'agent',
  actions: [{ type: 'navigate', value: 'https://example.com' }, { id: 'a2', type: 'click', selector: '#buy' }],
};

let svc: TestService;
let apiKey: string;
const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
const create = async (body: Record<string, unknown>, query = '') => {
  const res = await api('POST', `/api/tasks${query}`, { body });
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const without = (task: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(task).filter(([k]) => !keys.includes(k)));

before(async () => {
  svc = await startService();
  ({ apiKey } = await setupAdmin(svc));
});
after(async () => { await svc.close(); });

describe('tasks: create and overwrite', () => {
  it('assigns a task_ id when none is given and answers the saved task with an empty history', async () => {
    const task = await create({ ...BASE, description: 'daily prices', variables: { q: 'shoes' } });
    assert.match(task.id, /^task_[A-Za-z0-9_-]{8,}$/);
    assert.equal(task.createdAt, task.updatedAt);
    assert.ok(!Number.isNaN(Date.parse(task.createdAt)));
    assert.deepEqual(task.versions, []);
    assert.deepEqual(without(task, 'id', 'createdAt', 'updatedAt', 'versions'), { ...BASE, description: 'daily prices', variables: { q: 'shoes' } });
    const stored = await api('GET', `/api/tasks/${task.id}`);
    assert.deepEqual([stored.status, stored.body], [200, task]);
  });

  it('gives two tasks created without id different ids', async () => {
    const [a, b] = await Promise.all([create(BASE), create(BASE)]);
    assert.notEqual(a.id, b.id);
  });

  it('uses a given id that does not exist yet', async () => {
    const task = await create({ ...BASE, id: 'my-task' });
    assert.equal(task.id, 'my-task');
  });

  it('overwrites an existing id, keeping createdAt and history, without a snapshot by default', async () => {
    const first = await create({ ...BASE, id: 'ow-1', description: 'old' });
    await pause(5);
    const second = await create({ id: 'ow-1', name: 'New', url: 'https://example.org', mode: 'scrape', actions: [] });
    assert.equal(second.createdAt, first.createdAt);
    assert.ok(second.updatedAt > first.updatedAt);
    assert.deepEqual(second.versions, []);
    assert.equal('description' in second, false, 'an overwrite replaces the whole configuration');
    assert.deepEqual([second.name, second.mode, second.actions], ['New', 'scrape', []]);
    const explicit = await create({ ...BASE, id: 'ow-1' }, '?version=false');
    assert.deepEqual(explicit.versions, []);
  });

  it('with ?version=true snapshots the old task (without its versions) first, newest first', async () => {
    const first = await create({ ...BASE, id: 'ow-2', description: 'v1' });
    const second = await create({ ...BASE, id: 'ow-2', description: 'v2' }, '?version=true');
    assert.equal(second.versions.length, 1);
    const [entry] = second.versions;
    assert.match(entry.id, /^ver_/);
    assert.ok(!Number.isNaN(Date.parse(entry.savedAt)));
    assert.deepEqual(entry.snapshot, without(first, 'versions'));
    const third = await create({ ...BASE, id: 'ow-2', description: 'v3' }, '?version=true');
    assert.deepEqual(third.versions.map((v: any) => v.snapshot.description), ['v2', 'v1']);
    assert.equal(third.description, 'v3');
  });

  it('accepts and ignores versions, createdAt and updatedAt sent back by a client', async () => {
    const first = await create({ ...BASE, id: 'echo' });
    const patched = (await api('PATCH', '/api/tasks/echo', { body: { name: 'Echo' } })).body;
    const resent = await create({ ...patched, name: 'Echo 2', versions: [], createdAt: '1999-01-01T00:00:00.000Z', updatedAt: 'x' });
    assert.equal(resent.createdAt, first.createdAt);
    assert.notEqual(resent.updatedAt, 'x');
    assert.deepEqual(resent.versions, patched.versions);
    assert.equal(resent.name, 'Echo 2');
  });

  it('stores the task-level options and answers them back', async () => {
    const options = {
      extractionScript: 'return document.title', rotateProxies: true, proxyId: 'px_1',
      viewport: { width: 1280, height: 800 }, userAgent: 'taskloom-test', timeoutMs: 60000,
      output: { credentialId: 'cred_1', tableId: 42, onError: 'fail' }, record: true,
      schedule: { enabled: true, frequency: 'daily', hour: 9, minute: 30 },
    };
    const task = await create({ ...BASE, ...options });
    const stored = (await api('GET', `/api/tasks/${task.id}`)).body;
    assert.deepEqual(without(stored, 'id', 'createdAt', 'updatedAt', 'versions', ...Object.keys(BASE)), options);
  });

  it('accepts URLs with {$name} placeholders without checking them', async () => {
    for (const url of ['{$host}/path', 'https://{$domain}/a?q={$q}']) {
      const task = await create({ ...BASE, url });
      assert.equal(task.url, url);
    }
  });
});

describe('tasks: patch', () => {
  it('snapshots before a change, ignores id and versions, and null removes an optional field', async () => {
    const task = await create({ ...BASE, description: 'to remove', variables: { a: 1 } });
    await pause(5);
    const res = await api('PATCH', `/api/tasks/${task.id}`, {
      body: { id: 'other-id', versions: [{ bogus: true }], description: null, name: 'Patched' },
    });
    assert.equal(res.status, 200, res.text);
    const patched = res.body;
    assert.equal(patched.id, task.id);
    assert.equal(patched.name, 'Patched');
    assert.equal('description' in patched, false);
    assert.deepEqual(patched.variables, { a: 1 }, 'fields not sent stay as they were');
    assert.equal(patched.createdAt, task.createdAt);
    assert.ok(patched.updatedAt > task.updatedAt);
    assert.equal(patched.versions.length, 1);
    assert.deepEqual(patched.versions[0].snapshot, without(task, 'versions'));
    assert.equal((await api('GET', '/api/tasks/other-id')).status, 404);

    const empty = (await api('PATCH', `/api/tasks/${task.id}`, { body: {} })).body;
    assert.equal(empty.versions.length, 1, 'an empty patch changes nothing, so it adds no version (tasks-unchanged.test.ts)');
  });

  it('answers 404 TASK_NOT_FOUND for an unknown task', async () => {
    const res = await api('PATCH', '/api/tasks/task_missing', { body: { name: 'x' } });
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'TASK_NOT_FOUND');
    assert.match(res.body.details, /task_missing/);
  });

  it('keeps at most 100 versions, newest first', async () => {
    const task = await create({ ...BASE, name: 'n0' });
    let last: any;
    for (let i = 1; i <= 101; i++) {
      last = (await api('PATCH', `/api/tasks/${task.id}`, { body: { name: `n${i}` } })).body;
    }
    assert.equal(last.name, 'n101');
    assert.equal(last.versions.length, 100);
    assert.equal(last.versions[0].snapshot.name, 'n100');
    assert.equal(last.versions[99].snapshot.name, 'n1', 'the oldest snapshot (n0) was dropped');
    assert.equal(new Set(last.versions.map((v: any) => v.id)).size, 100);
  });

  it('lands 20 concurrent PATCHes on one task, each with its own snapshot', async () => {
    const task = await create({ ...BASE, description: 'start' });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      api('PATCH', `/api/tasks/${task.id}`, { body: { description: `p${i}` } })));
    assert.deepEqual(results.map((r) => r.status), Array(20).fill(200));
    const final = (await api('GET', `/api/tasks/${task.id}`)).body;
    assert.equal(final.versions.length, 20);
    const seen = [final.description, ...final.versions.map((v: any) => v.snapshot.description)];
    const expected = ['start', ...Array.from({ length: 20 }, (_, i) => `p${i}`)];
    assert.deepEqual([...seen].sort(), expected.sort(), 'every state appears exactly once: no patch was lost');
  });
});
