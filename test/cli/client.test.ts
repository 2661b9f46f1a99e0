// The client commands against a real service on a real port, spawned as real processes: tasks list, the
// connection options and environment, and the exit codes of failures (unreachable 3, refused key 3, unknown 4).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { closedPort, runInProcess, runTaskloom } from './cli-process.js';

describe('taskloom client commands', () => {
  let svc: TestService;
  let apiKey: string;
  let env: Record<string, string>;
  const ids: string[] = [];

  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
    env = { TASKLOOM_URL: svc.baseUrl, TASKLOOM_API_KEY: apiKey };
    for (const name of ['Read the title', 'Search | products']) {
      const res = await svc.request('POST', '/api/tasks', {
        apiKey, body: { name, url: 'https://example.com/', mode: 'agent', actions: [], description: `does ${name}` },
      });
      assert.equal(res.status, 200, res.text);
      ids.push(res.body.id);
    }
  });
  after(async () => {
    await svc?.close();
  });

  it('tasks list prints a table of id, name, mode and URL', async () => {
    const { code, stdout, stderr } = await runTaskloom(['tasks', 'list'], env);
    assert.equal(code, 0, stderr);
    const lines = stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+NAME\s+MODE\s+URL$/);
    assert.equal(lines.length, 3);
    for (const id of ids) assert.ok(lines.some((line) => line.startsWith(id) && line.includes('agent') && line.includes('https://example.com/')), id);
    assert.ok(stdout.includes('Search | products'));
  });

  it('tasks list --json prints the entries; --url and --api-key override the environment', async () => {
    const { code, stdout, stderr } = await runTaskloom(
      ['tasks', 'list', '--json', '--url', svc.baseUrl, '--api-key', apiKey],
      { TASKLOOM_URL: 'http://127.0.0.1:9/', TASKLOOM_API_KEY: 'tlk_wrong' },
    );
    assert.equal(code, 0, stderr);
    const tasks = JSON.parse(stdout) as { id: string; name: string; description: string }[];
    assert.deepEqual(tasks.map((t) => t.id).sort(), [...ids].sort());
    assert.equal(tasks.find((t) => t.id === ids[0])?.description, 'does Read the title');
  });

  it('a service that does not answer exits 3 with "cannot reach <url>"', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, stdout, stderr } = await runTaskloom(['tasks', 'list', '--url', url, '--api-key', apiKey]);
    assert.equal(code, 3, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, new RegExp(`cannot reach ${url} \\(ECONNREFUSED\\)`));
    assert.ok(!stderr.includes(apiKey), 'the key is never printed');
  });

  it('a wrong API key exits 3 with the service\'s error, and never prints the key', async () => {
    const wrong = 'tlk_this-key-is-wrong-0123456789';
    const { code, stderr } = await runTaskloom(['tasks', 'list'], { ...env, TASKLOOM_API_KEY: wrong });
    assert.equal(code, 3);
    assert.match(stderr, /UNAUTHORIZED/);
    assert.ok(!stderr.includes(wrong));
  });

  it('no API key at all exits 3', async () => {
    const { code, stderr } = await runInProcess(['executions', 'list'], { TASKLOOM_URL: svc.baseUrl });
    assert.equal(code, 3);
    assert.match(stderr, /UNAUTHORIZED/);
  });

  it('an unknown task exits 4; a name two tasks share exits 2 naming their ids', async () => {
    const { code, stdout, stderr } = await runTaskloom(['run', 'No such task', '--wait'], env);
    assert.equal(code, 4);
    assert.equal(stdout, '');
    assert.match(stderr, /no task has the id or name "No such task"/);

    const twin = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'Read the title', url: 'https://example.com/', mode: 'agent', actions: [] } });
    const shared = await runInProcess(['run', 'Read the title'], env);
    assert.equal(shared.code, 2);
    assert.match(shared.stderr, new RegExp(`2 tasks are named "Read the title" \\(.*${twin.body.id}`));
    await svc.request('DELETE', `/api/tasks/${twin.body.id}`, { apiKey });
  });

  it('arguments the service refuses (400) exit 2 with its error and details', async () => {
    const { code, stderr } = await runInProcess(['executions', 'list', '--status', 'sleeping'], env);
    assert.equal(code, 2);
    assert.match(stderr, /VALIDATION_ERROR: .*status/);
  });

  it('executions list with none prints "no executions" on stderr; --json prints []', async () => {
    const table = await runInProcess(['executions', 'list'], env);
    assert.equal(table.code, 0, table.stderr);
    assert.equal(table.stdout, '');
    assert.match(table.stderr, /no executions/);
    const json = await runInProcess(['executions', 'list', '--json'], env);
    assert.deepEqual(JSON.parse(json.stdout), []);
  });
});
