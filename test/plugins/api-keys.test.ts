// Named API keys through the API (issue 24): shown once, listed without the key, refused at once when revoked or
// expired, and a key limited to one task neither runs another nor reads its executions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { createKey } from '../support/team.js';

describe('named API keys', () => {
  let svc: TestService;
  let admin: { cookie: string; apiKey: string };
  const answers: string[] = [];
  /** Every answer is kept, to check no key but the one just created ever appears in one. */
  const call = async (method: string, url: string, options: Parameters<TestService['request']>[2] = {}) => {
    const res = await svc.request(method, url, options);
    answers.push(res.text);
    return res;
  };
  // A browserless task whose URL the outbound rule refuses: its run ends at once, with a real execution record.
  const newTask = async (name: string) =>
    (await call('POST', '/api/tasks', { cookie: admin.cookie, body: { name, url: 'http://10.255.0.1/', mode: 'http', actions: [] } })).body.id as string;

  before(async () => {
    svc = await startService();
    admin = await setupAdmin(svc);
  });
  after(async () => { await svc.close(); });

  it('is shown in its creation answer only; the list shows a preview, its scopes and when it was last used', async () => {
    const created = await call('POST', '/api/keys', { cookie: admin.cookie, body: { name: 'ci', scopes: ['read'] } });
    assert.equal(created.status, 201);
    const { key, apiKey } = created.body;
    assert.match(key, /^tlkn_/);
    assert.deepEqual({ ...apiKey, id: undefined, createdAt: undefined }, {
      id: undefined, createdAt: undefined, name: 'ci', scopes: ['read'], taskIds: null, expiresAt: null, lastUsedAt: null,
      revokedAt: null, preview: `****${key.slice(-4)}`,
    });
    answers.pop(); // the one answer that holds the key, by design
    assert.equal((await call('GET', '/api/tasks', { apiKey: key })).status, 200);
    const listed = await call('GET', '/api/keys', { cookie: admin.cookie });
    const entry = listed.body.find((k: { id: string }) => k.id === apiKey.id);
    assert.ok(entry.lastUsedAt && Date.parse(entry.lastUsedAt) >= Date.parse(apiKey.createdAt), `lastUsedAt ${entry.lastUsedAt}`);
    // Used again within the minute: the last use is not written again (no write per request).
    const used = await svc.service.services.storage.settings.get<Record<string, string>>('auth.namedKeysUsed');
    for (let i = 0; i < 5; i++) await call('GET', '/api/tasks', { apiKey: key });
    assert.deepEqual(await svc.service.services.storage.settings.get('auth.namedKeysUsed'), used);
    assert.ok(!answers.some((text) => text.includes(key)), 'an answer other than the creation showed the key');
  });

  it('a revoked key is refused at once, saying so; revoking an unknown id is 404', async () => {
    const { key, id } = await createKey(svc, admin.cookie, { scopes: ['read', 'run'] });
    assert.equal((await call('GET', '/api/tasks', { apiKey: key })).status, 200);
    const revoked = await call('DELETE', `/api/keys/${id}`, { cookie: admin.cookie });
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.revokedAt);
    const refused = await call('GET', '/api/tasks', { apiKey: key });
    assert.equal(refused.status, 401);
    assert.match(refused.body.details, /was revoked/);
    const unknown = await call('DELETE', '/api/keys/0000000000000000', { cookie: admin.cookie });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, 'API_KEY_NOT_FOUND');
    assert.ok(!answers.some((text) => text.includes(key)));
  });

  it('an expired key is refused, saying so; an expiry in the past is refused at creation', async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    const { key } = await createKey(svc, admin.cookie, { scopes: ['read'], expiresAt: soon });
    assert.equal((await call('GET', '/api/tasks', { apiKey: key })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(soon) - Date.now() + 50));
    const refused = await call('GET', '/api/tasks', { apiKey: key });
    assert.equal(refused.status, 401);
    assert.match(refused.body.details, /expired at/);
    const past = await call('POST', '/api/keys', { cookie: admin.cookie, body: { name: 'old', scopes: ['read'], expiresAt: '2020-01-01T00:00:00Z' } });
    assert.equal(past.status, 400);
  });

  it('a key limited to one task runs and reads only that task and its executions', async () => {
    const mine = await newTask('mine');
    const other = await newTask('other');
    const { key } = await createKey(svc, admin.cookie, { scopes: ['read', 'run'], taskIds: [mine] });
    const ownRun = await call('POST', `/api/tasks/${mine}/api`, { apiKey: key, body: {} });
    assert.equal(ownRun.status, 200, ownRun.text);
    const otherRun = await call('POST', `/api/tasks/${other}/api`, { apiKey: key, body: {} });
    assert.equal(otherRun.status, 403);
    assert.match(otherRun.body.details, new RegExp(`limited to tasks ${mine}, not ${other}`));
    const otherExecution = (await call('POST', `/api/tasks/${other}/api`, { cookie: admin.cookie, body: {} })).body.executionId as string;
    const ownExecution = ownRun.body.executionId as string;
    assert.ok(ownExecution && otherExecution);

    assert.equal((await call('GET', `/api/tasks/${mine}`, { apiKey: key })).status, 200);
    assert.equal((await call('GET', `/api/tasks/${other}`, { apiKey: key })).status, 403);
    assert.equal((await call('GET', `/api/executions/${ownExecution}`, { apiKey: key })).status, 200);
    for (const url of [`/api/executions/${otherExecution}`, `/api/executions/${otherExecution}/events`, `/api/executions/${otherExecution}/files.zip`]) {
      assert.equal((await call('GET', url, { apiKey: key })).status, 403, url);
    }
    assert.equal((await call('POST', `/api/executions/${otherExecution}/cancel`, { apiKey: key, body: {} })).status, 403);
    // Lists answer when filtered by one of its tasks, and are refused otherwise (they would show other tasks' runs).
    const own = await call('GET', `/api/executions/list?taskId=${mine}`, { apiKey: key });
    assert.equal(own.status, 200);
    assert.deepEqual(own.body.executions.map((e: { taskId: string }) => e.taskId), [mine]);
    for (const url of ['/api/executions/list', `/api/executions?taskId=${other}`, '/api/executions/count', '/api/tasks', '/api/schedules']) {
      const res = await call('GET', url, { apiKey: key });
      assert.equal(res.status, 403, url);
      assert.match(res.body.details, /limited to tasks/);
    }
    // Its scopes still hold within its task: no write.
    assert.equal((await call('PATCH', `/api/tasks/${mine}`, { apiKey: key, body: { name: 'renamed' } })).status, 403);
    // An execution that does not exist is the route's own 404, for a limited key as for anyone.
    assert.equal((await call('GET', '/api/executions/no-such-run', { apiKey: key })).status, 404);
  });
});
