// Two taskloom instances on one PostgreSQL database with BLOB_STORE=postgres: a capture a run makes on instance A
// is listed and served by instance B, and deleting the execution on B (or retention set on B) removes its blobs
// (A then answers 404).
// Real services on real ports, a fresh database, real Chromium; each instance has a DATA_DIR of its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = (await postgresUnavailable()) || chromiumOrSkip().skip;
const noFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0 ? false : 'ffmpeg is not installed (apt-get install ffmpeg)';

describe('captures through two instances sharing PostgreSQL (BLOB_STORE=postgres)', { skip, timeout: 180_000 }, () => {
  let db: TestDatabase;
  let pages: PagesServer;
  let a: TestService, b: TestService;
  let apiKey = '';
  const bytesOf = async (on: TestService, url: string) => {
    const res = await fetch(on.baseUrl + url, { headers: { 'x-api-key': apiKey } });
    return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
  };
  /** Capture files under an instance's DATA_DIR (there are none: the blobs live in the database). */
  const filesOf = (on: TestService) => fs.readdir(path.join(on.dataDir, 'captures')).catch(() => [] as string[]);

  before(async () => {
    pages = await startPagesServer();
    db = await createTestDatabase('taskloom_blob_multi');
    // Instances sharing a database share the key that seals its secrets.
    const env = {
      STORAGE: 'postgres', BLOB_STORE: 'postgres', DATABASE_URL: db.url(), SECRETS_KEY: randomBytes(32).toString('base64'), ALLOW_PRIVATE_NETWORKS: 'true',
    };
    a = await startService({ ...env, INSTANCE_ID: 'instance-a' });
    b = await startService({ ...env, INSTANCE_ID: 'instance-b' });
    ({ apiKey } = await setupAdmin(a));
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await pages?.close();
    await db?.drop();
  });

  async function runOnA(task: Record<string, unknown>): Promise<{ executionId: string; captures: string[] }> {
    const created = await a.request('POST', '/api/tasks', { apiKey, body: { name: 'captures on A', mode: 'agent', ...task } });
    assert.equal(created.status, 200, created.text);
    const run = await a.request('POST', `/api/tasks/${created.body.id}/api`, { apiKey });
    assert.equal(run.body.status, 'success', run.text);
    return { executionId: run.body.executionId, captures: run.body.result.captures };
  }

  it('a screenshot taken by a run on A is listed and served by B; deleting the execution on B removes it', async () => {
    const { executionId, captures } = await runOnA({ url: `${pages.origin}/`, actions: [{ type: 'screenshot' }, { type: 'screenshot', value: 'full' }] });
    assert.deepEqual(captures, [`${executionId}_1.png`, `${executionId}_2.png`]);

    const listed = await b.request('GET', `/api/data/captures?runId=${executionId}`, { apiKey });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.map((c: { name: string }) => c.name).sort(), captures);
    const fromA = await bytesOf(a, listed.body[0].url);
    const fromB = await bytesOf(b, listed.body[0].url);
    assert.deepEqual([fromB.status, fromB.type], [200, 'image/png']);
    assert.deepEqual([...fromB.body.subarray(1, 4)], [0x50, 0x4e, 0x47], 'B serves a PNG');
    assert.deepEqual(fromB.body, fromA.body);
    assert.equal(fromB.body.length, listed.body[0].size);
    assert.deepEqual([...await filesOf(a), ...await filesOf(b)], [], 'a capture was written to a DATA_DIR');

    const deleted = await b.request('DELETE', `/api/executions/${executionId}`, { apiKey });
    assert.deepEqual([deleted.status, deleted.body], [200, { success: true }]);
    for (const name of captures) {
      const gone = await a.request('GET', `/api/data/captures/${name}`, { apiKey });
      assert.deepEqual([gone.status, gone.body.error], [404, 'NOT_FOUND'], name);
    }
    assert.deepEqual((await a.request('GET', `/api/data/captures?runId=${executionId}`, { apiKey })).body, []);
  });

  it('a recording made on A streams from B whole', { skip: noFfmpeg }, async () => {
    const { executionId, captures } = await runOnA({ url: `${pages.origin}/animated.html`, record: true, actions: [{ type: 'wait', value: '600' }] });
    assert.deepEqual(captures, [`${executionId}_1.webm`]);
    const fromB = await bytesOf(b, `/api/data/captures/${captures[0]}`);
    assert.deepEqual([fromB.status, fromB.type], [200, 'video/webm']);
    assert.deepEqual([...fromB.body.subarray(0, 4)], [0x1a, 0x45, 0xdf, 0xa3], 'a WebM (EBML) file');
    assert.deepEqual(fromB.body, (await bytesOf(a, `/api/data/captures/${captures[0]}`)).body);
    const cleared = await b.request('POST', '/api/executions/clear', { apiKey });
    assert.equal(cleared.status, 200);
    assert.equal((await bytesOf(a, `/api/data/captures/${captures[0]}`)).status, 404);
  });

  it('retention set on B removes the blobs of the executions it prunes, wherever they were written', async () => {
    const startedAt = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000).toISOString();
    const executionId = 'exec_blob_retention';
    await a.service.services.storage.executions.insert({
      executionId, taskId: 'task_retention', taskName: 'Retention', status: 'success', trigger: 'api', startedAt, finishedAt: startedAt,
      durationMs: 800, result: { data: null, captures: [`${executionId}_1.png`] }, logs: [],
    });
    const saved = await a.service.app.captures.save(executionId, Buffer.from('png bytes'), 'png');
    assert.equal((await bytesOf(b, saved.url)).status, 200);
    const retention = await b.request('POST', '/api/settings/retention', { apiKey, body: { days: 10 } });
    assert.deepEqual([retention.status, retention.body.pruned], [200, 1], retention.text);
    assert.equal((await bytesOf(a, saved.url)).status, 404);
    assert.deepEqual(await a.service.app.captures.list({ runId: executionId }), []);
  });
});
