// `taskloom keys list|create|revoke` as real processes against a real service: a key created with scopes is printed
// once and works within them, the list never shows a key, a revoked key is refused at once, and bad input exits 2.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { runTaskloom } from './cli-process.js';

describe('taskloom keys', () => {
  let svc: TestService;
  let env: Record<string, string>;
  let taskId: string;

  before(async () => {
    svc = await startService();
    const { apiKey } = await setupAdmin(svc);
    env = { TASKLOOM_URL: svc.baseUrl, TASKLOOM_API_KEY: apiKey };
    const created = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'Read me', mode: 'agent', url: 'https://example.com/', actions: [] } });
    assert.equal(created.status, 200, created.text);
    taskId = created.body.id;
  });
  after(async () => { await svc?.close(); });

  it('create prints the key once; it reads within its task and scopes; list shows it without the key; revoke refuses it at once', async () => {
    const made = await runTaskloom(['keys', 'create', '--name', 'nightly reader', '--scope', 'read', '--task', taskId], env);
    assert.equal(made.code, 0, made.stderr);
    const key = made.stdout.trim();
    assert.match(key, /^\S{20,}$/, 'stdout holds the key alone');
    const [, id] = /created (\S+) \(nightly reader\)/.exec(made.stderr) ?? [];
    assert.ok(id, made.stderr);

    assert.equal((await svc.request('GET', `/api/executions/count?taskId=${taskId}`, { apiKey: key })).status, 200, 'it reads its task\'s executions');
    const write = await svc.request('POST', '/api/tasks', { apiKey: key, body: { name: 'No', mode: 'agent', url: 'https://example.com/', actions: [] } });
    assert.equal(write.status, 403, 'it cannot write');

    const [table, json] = await Promise.all([runTaskloom(['keys', 'list'], env), runTaskloom(['keys', 'list', '--json'], env)]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, new RegExp(`${id}\\s+nightly reader\\s+read\\s+${taskId}\\s+never\\s+\\S+\\s+active`));
    const listed = (JSON.parse(json.stdout) as Array<{ id: string; preview: string }>).find((k) => k.id === id);
    assert.ok(listed);
    assert.ok(!table.stdout.includes(key) && !json.stdout.includes(key), 'the list never shows the key');

    const revoked = await runTaskloom(['keys', 'revoke', id!], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stderr, /revoked .* \(nightly reader\)/);
    assert.equal((await svc.request('GET', `/api/executions/count?taskId=${taskId}`, { apiKey: key })).status, 401, 'refused once revoked');
    assert.match((await runTaskloom(['keys', 'list'], env)).stdout, new RegExp(`${id}.*revoked`));
  });

  it('refuses bad input with exit 2 and a missing key with exit 4, saying why', async () => {
    const [noScope, badScope, badDate, missing, noKey] = await Promise.all([
      runTaskloom(['keys', 'create', '--name', 'x'], env),
      runTaskloom(['keys', 'create', '--name', 'x', '--scope', 'root'], env),
      runTaskloom(['keys', 'create', '--name', 'x', '--scope', 'read', '--expires', 'tomorrow'], env),
      runTaskloom(['keys', 'revoke', 'key_that_is_not_there'], env),
      runTaskloom(['keys', 'list'], { TASKLOOM_URL: svc.baseUrl }),
    ]);
    assert.deepEqual([noScope.code, badScope.code, badDate.code, missing.code, noKey.code], [2, 2, 2, 4, 3]);
    assert.match(noScope.stderr, /--scope is required/);
    assert.match(badScope.stderr, /"root" is not a scope/);
    assert.match(badDate.stderr, /VALIDATION_ERROR.*expiresAt/);
    assert.match(missing.stderr, /API_KEY_NOT_FOUND/);
  });
});
