// `--task` of `taskloom executions list` and `taskloom export` as real processes against a real service: a task's
// id or exact name, as `taskloom run` takes; the id of a deleted task still finds its executions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { runTaskloom } from './cli-process.js';

describe('--task takes a task id or name', () => {
  let svc: TestService;
  let env: Record<string, string>;
  let reportId: string;

  const seed = (executionId: string, taskId: string, taskName: string, startedAt: string) => svc.service.services.storage.executions.insert({
    executionId, taskId, taskName, status: 'success', trigger: 'api', mode: 'agent', durationMs: 900, startedAt, finishedAt: startedAt,
    result: { data: null }, logs: [],
  });

  before(async () => {
    svc = await startService();
    const { apiKey } = await setupAdmin(svc);
    env = { TASKLOOM_URL: svc.baseUrl, TASKLOOM_API_KEY: apiKey };
    const created = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'Nightly report', mode: 'agent', url: 'https://example.com/', actions: [] } });
    assert.equal(created.status, 200, created.text);
    reportId = created.body.id;
    await seed('exec_report_1', reportId, 'Nightly report', '2025-04-01T10:00:00.000Z');
    await seed('exec_report_2', reportId, 'Nightly report', '2025-04-02T10:00:00.000Z');
    await seed('exec_other', 'task_deleted_long_ago', 'Gone', '2025-04-03T10:00:00.000Z');
  });
  after(async () => { await svc?.close(); });

  it('executions list --task <name> lists that task\'s runs, as --task <id> does', async () => {
    const [byName, byId, table] = await Promise.all([
      runTaskloom(['executions', 'list', '--json', '--task', 'Nightly report'], env),
      runTaskloom(['executions', 'list', '--json', '--task', reportId], env),
      runTaskloom(['executions', 'list', '--task', 'Nightly report'], env),
    ]);
    assert.equal(byName.code, 0, byName.stderr);
    const ids = (JSON.parse(byName.stdout) as { executionId: string }[]).map((e) => e.executionId);
    assert.deepEqual(ids, ['exec_report_2', 'exec_report_1']);
    assert.deepEqual(JSON.parse(byId.stdout), JSON.parse(byName.stdout));
    assert.equal(table.code, 0, table.stderr);
    assert.doesNotMatch(table.stderr, /no executions/);
    assert.match(table.stdout, /exec_report_2\s+Nightly report\s+success/);
  });

  it('executions list --outcome and --changed list the runs that ended that way, with outcome and changed columns', async () => {
    await svc.service.services.storage.executions.insert({
      executionId: 'exec_walled', taskId: reportId, taskName: 'Nightly report', status: 'error', outcome: 'anti_bot', trigger: 'api',
      changed: true, durationMs: 900, startedAt: '2025-04-01T12:00:00.000Z', finishedAt: '2025-04-01T12:00:00.000Z', result: { data: null }, logs: [],
    });
    try {
      const [walled, table, old, changed, unchanged, both] = await Promise.all([
        runTaskloom(['executions', 'list', '--json', '--outcome', 'anti_bot'], env),
        runTaskloom(['executions', 'list', '--task', 'Nightly report'], env),
        runTaskloom(['executions', 'list', '--json', '--outcome', 'success'], env),
        runTaskloom(['executions', 'list', '--json', '--changed'], env),
        runTaskloom(['executions', 'list', '--unchanged'], env),
        runTaskloom(['executions', 'list', '--changed', '--unchanged'], env),
      ]);
      assert.equal(walled.code, 0, walled.stderr);
      assert.deepEqual((JSON.parse(walled.stdout) as { executionId: string; outcome: string }[]).map((e) => [e.executionId, e.outcome]), [['exec_walled', 'anti_bot']]);
      assert.match(table.stdout, /^ID\s+TASK\s+STATUS\s+TRIGGER\s+STARTED\s+DURATION\s+OUTCOME\s+CHANGED$/m);
      assert.match(table.stdout, /exec_walled\s+Nightly report\s+error\s+api\s+\S+\s+900 ms\s+anti_bot\s+yes$/m);
      assert.match(table.stdout, /exec_report_2\s+Nightly report\s+success\s+api\s+\S+\s+900 ms\s+success$/m, 'never compared: an empty cell');
      assert.deepEqual((JSON.parse(changed.stdout) as { executionId: string }[]).map((e) => e.executionId), ['exec_walled']);
      assert.deepEqual([unchanged.code, unchanged.stderr], [0, 'no executions\n']);
      assert.equal(both.code, 2);
      // Records from before outcomes count by their status.
      assert.equal(JSON.parse(old.stdout).length, 3);
    } finally {
      await svc.service.services.storage.executions.delete('exec_walled');
    }
  });

  it('the id of a deleted task still lists its runs; a ref naming nothing exits 4 and says so', async () => {
    const deleted = await runTaskloom(['executions', 'list', '--json', '--task', 'task_deleted_long_ago'], env);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual((JSON.parse(deleted.stdout) as { executionId: string }[]).map((e) => e.executionId), ['exec_other']);
    const unknown = await runTaskloom(['executions', 'list', '--task', 'Weekly report'], env);
    assert.equal(unknown.code, 4, unknown.stderr);
    assert.match(unknown.stderr, /no task has the id or name "Weekly report"/);
  });

  it('export --task <name> streams only that task\'s executions', async () => {
    const { code, stdout, stderr } = await runTaskloom(['export', '--format', 'ndjson', '--task', 'Nightly report'], env);
    assert.equal(code, 0, stderr);
    const ids = stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as { executionId: string }).executionId);
    assert.deepEqual(ids, ['exec_report_2', 'exec_report_1']);
  });
});
