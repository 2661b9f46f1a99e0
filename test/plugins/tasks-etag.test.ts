// Edit conflicts (issue 24, 5a): a single task answered carries an ETag; a write with a stale If-Match is refused
// (412 TASK_CHANGED naming the current tag) and changes nothing; a write without If-Match works as before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const BASE = { name: 'Prices', url: 'https://example.com/shop', mode: 'agent', actions: [{ type: 'click', selector: '#buy' }] };

let svc: TestService;
let apiKey: string;
const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
const ifMatch = (tag: string) => ({ 'if-match': tag });

before(async () => {
  svc = await startService();
  ({ apiKey } = await setupAdmin(svc));
});
after(async () => { await svc.close(); });

describe('tasks: ETag and If-Match', () => {
  it('answers an ETag on GET, POST, PATCH and restore, which moves with every change and only then', async () => {
    const created = await api('POST', '/api/tasks', { body: BASE });
    const tag = created.headers.get('etag');
    assert.match(tag ?? '', /^"[A-Za-z0-9_-]{20,}"$/);
    const read = await api('GET', `/api/tasks/${created.body.id}`);
    assert.equal(read.headers.get('etag'), tag, 'the same state gives the same tag');
    const patched = await api('PATCH', `/api/tasks/${created.body.id}`, { body: { name: 'Renamed' } });
    assert.notEqual(patched.headers.get('etag'), tag);
    assert.equal((await api('GET', `/api/tasks/${created.body.id}`)).headers.get('etag'), patched.headers.get('etag'));
    const restored = await api('POST', `/api/tasks/${created.body.id}/versions/${patched.body.versions[0].id}/restore`);
    assert.equal(restored.status, 200, restored.text);
    assert.ok(restored.headers.get('etag'));
    assert.notEqual(restored.headers.get('etag'), patched.headers.get('etag'));
  });

  it('applies a PATCH whose If-Match is current, and refuses a stale one with 412 naming the current tag', async () => {
    const created = await api('POST', '/api/tasks', { body: BASE });
    const first = created.headers.get('etag')!;
    const mine = await api('PATCH', `/api/tasks/${created.body.id}`, { body: { name: 'Mine' }, headers: ifMatch(first) });
    assert.equal(mine.status, 200, mine.text);
    const current = mine.headers.get('etag')!;
    const stale = await api('PATCH', `/api/tasks/${created.body.id}`, { body: { name: 'Theirs' }, headers: ifMatch(first) });
    assert.equal(stale.status, 412, stale.text);
    assert.equal(stale.body.error, 'TASK_CHANGED');
    assert.ok(stale.body.details.includes(current), stale.body.details);
    const after = await api('GET', `/api/tasks/${created.body.id}`);
    assert.equal(after.body.name, 'Mine', 'a refused write changes nothing');
    assert.equal(after.body.versions.length, 1, 'nor snapshots');
    // W/ and lists are understood; * matches any existing task.
    assert.equal((await api('PATCH', `/api/tasks/${created.body.id}`, { body: { name: 'Weak' }, headers: ifMatch(`"x", W/${current}`) })).status, 200);
    assert.equal((await api('PATCH', `/api/tasks/${created.body.id}`, { body: { name: 'Any' }, headers: ifMatch('*') })).status, 200);
  });

  it('refuses an overwrite (POST with id) with a stale If-Match, and accepts it with the current one or none', async () => {
    const created = await api('POST', '/api/tasks', { body: BASE });
    const first = created.headers.get('etag')!;
    const elsewhere = await api('POST', '/api/tasks', { body: { ...BASE, id: created.body.id, name: 'Elsewhere' } });
    assert.equal(elsewhere.status, 200, 'without If-Match a write works as before');
    const stale = await api('POST', '/api/tasks', { body: { ...BASE, id: created.body.id, name: 'Stale' }, headers: ifMatch(first) });
    assert.equal(stale.status, 412);
    assert.equal(stale.body.error, 'TASK_CHANGED');
    assert.equal((await api('GET', `/api/tasks/${created.body.id}`)).body.name, 'Elsewhere');
    const fresh = await api('POST', '/api/tasks?version=true', {
      body: { ...BASE, id: created.body.id, name: 'Fresh' }, headers: ifMatch(elsewhere.headers.get('etag')!),
    });
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.body.name, 'Fresh');
  });

  it('refuses a write with If-Match to a task deleted meanwhile, rather than creating it anew', async () => {
    const created = await api('POST', '/api/tasks', { body: BASE });
    const tag = created.headers.get('etag')!;
    assert.equal((await api('DELETE', `/api/tasks/${created.body.id}`)).status, 200);
    const save = await api('POST', '/api/tasks', { body: { ...BASE, id: created.body.id }, headers: ifMatch(tag) });
    assert.equal(save.status, 412);
    assert.match(save.body.details, /no longer exists/);
    assert.equal((await api('GET', `/api/tasks/${created.body.id}`)).status, 404);
  });

  it('deletes with the current If-Match, refuses a stale one (the task stays), and a touch moves the tag', async () => {
    const created = await api('POST', '/api/tasks', { body: BASE });
    const tag = created.headers.get('etag')!;
    assert.equal((await api('POST', `/api/tasks/${created.body.id}/touch`)).status, 200);
    const stale = await api('DELETE', `/api/tasks/${created.body.id}`, { headers: ifMatch(tag) });
    assert.equal(stale.status, 412);
    const current = (await api('GET', `/api/tasks/${created.body.id}`)).headers.get('etag')!;
    assert.notEqual(current, tag);
    assert.equal((await api('DELETE', `/api/tasks/${created.body.id}`, { headers: ifMatch(current) })).status, 200);
    assert.equal((await api('GET', `/api/tasks/${created.body.id}`)).status, 404);
  });
});
