// `taskloom export` as a real process against a real service: GET /api/executions/export streamed to a file or
// stdout, in each format, with the filters passed through. Executions are stored directly (no browser needed).
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, setupAdmin, startService, type TestService } from '../support/service.js';
import { runTaskloom } from './cli-process.js';

describe('taskloom export', () => {
  let svc: TestService;
  let env: Record<string, string>;
  let outDir: string;

  before(async () => {
    svc = await startService();
    const { apiKey } = await setupAdmin(svc);
    env = { TASKLOOM_URL: svc.baseUrl, TASKLOOM_API_KEY: apiKey };
    outDir = await makeTempDir('taskloom-export-');
    const runs = [
      { executionId: 'exec_one', status: 'success', startedAt: '2025-03-01T10:00:00.000Z' },
      { executionId: 'exec_two', status: 'error', startedAt: '2025-03-02T10:00:00.000Z' },
      { executionId: 'exec_three', status: 'success', startedAt: '2025-03-03T10:00:00.000Z' },
    ] as const;
    for (const run of runs) {
      await svc.service.services.storage.executions.insert({
        ...run, taskId: 'task_export', taskName: 'Export me', trigger: 'api', mode: 'agent', durationMs: 1200,
        finishedAt: run.startedAt, result: { data: { n: run.executionId } }, logs: [{ at: run.startedAt, level: 'info', message: 'started' }],
      });
    }
  });
  after(async () => {
    await svc?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('--format ndjson --out writes one line per execution to the file, newest first', async () => {
    const out = path.join(outDir, 'all.ndjson');
    const { code, stdout, stderr } = await runTaskloom(['export', '--format', 'ndjson', '--out', out], env);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /wrote .*all\.ndjson/);
    const lines = (await readFile(out, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as { executionId: string });
    assert.deepEqual(lines.map((l) => l.executionId), ['exec_three', 'exec_two', 'exec_one']);
  });

  it('--format csv with --status, --task, --from and --to streams the matching rows to stdout', async () => {
    const { code, stdout, stderr } = await runTaskloom([
      'export', '--format', 'csv', '--status', 'success', '--task', 'task_export',
      '--from', '2025-03-02T00:00:00Z', '--to', '2025-03-31T00:00:00Z',
    ], env);
    assert.equal(code, 0, stderr);
    const rows = stdout.trimEnd().split(/\r?\n/);
    assert.equal(rows.length, 2, stdout);
    assert.match(rows[0]!, /executionId/);
    assert.match(rows[1]!, /exec_three/);
  });

  it('--format avro writes an Avro container file', async () => {
    const out = path.join(outDir, 'all.avro');
    const { code, stderr } = await runTaskloom(['export', '--format', 'avro', '--out', out], env);
    assert.equal(code, 0, stderr);
    const bytes = await readFile(out);
    assert.deepEqual([...bytes.subarray(0, 4)], [0x4f, 0x62, 0x6a, 0x01], 'the Avro magic "Obj\\x01"');
  });

  it('--out in a folder that does not exist names the folder (exit 2) before anything is downloaded', async () => {
    const missing = path.join(outDir, 'no-such-folder');
    const { code, stderr } = await runTaskloom(['export', '--format', 'csv', '--out', path.join(missing, 'all.csv')], env);
    assert.equal(code, 2, stderr);
    assert.ok(stderr.includes(`the folder ${missing} does not exist`), stderr);
    assert.doesNotMatch(stderr, /unexpected error/);
  });

  it('a filter the service refuses exits 2 and leaves no file behind', async () => {
    const out = path.join(outDir, 'refused.csv');
    const { code, stderr } = await runTaskloom(['export', '--format', 'csv', '--from', 'last tuesday', '--out', out], env);
    assert.equal(code, 2);
    assert.match(stderr, /VALIDATION_ERROR/);
    await assert.rejects(readFile(out), { code: 'ENOENT' });
  });
});
