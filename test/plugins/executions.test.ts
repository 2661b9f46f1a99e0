import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { withOutcome } from '../../layers/outcomes/outcome-of.js';
import { makeTempDir, setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const T0 = Date.UTC(2025, 0, 1);
const SUMMARY_FIELDS = ['durationMs', 'executionId', 'outcome', 'startedAt', 'status', 'taskId', 'taskName', 'trigger'];

/** Execution `i` starts `i` seconds after T0, so a higher `i` is newer. */
function record(i: number, overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const startedAt = new Date(T0 + i * 1000).toISOString();
  return {
    executionId: `exec_${i}`, taskId: i % 2 === 0 ? 'task_even' : 'task_odd', taskName: `Task ${i % 2}`,
    status: i % 3 === 0 ? 'error' : 'success', trigger: 'api', startedAt,
    finishedAt: new Date(T0 + i * 1000 + 250).toISOString(), durationMs: 250,
    result: { data: { i, rows: [1, 2] }, finalUrl: 'https://example.com/', title: 'Example', captures: [] },
    logs: [{ at: startedAt, level: 'info', message: `action ${i}`, actionIndex: 0 }],
    ...overrides,
  };
}

let svc: TestService, apiKey: string, cookie: string;
const store = () => svc.service.services.storage.executions;
const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
const seed = async (records: ExecutionRecord[]) => { for (const r of records) await store().insert(r); };
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const ids = (body: Array<{ executionId: string }>) => body.map((e) => e.executionId);
const exists = (file: string) => fs.stat(file).then(() => true, () => false);

before(async () => {
  svc = await startService();
  ({ apiKey, cookie } = await setupAdmin(svc));
});
after(() => svc.close());
beforeEach(async () => {
  await store().clear();
  for (const c of await svc.service.app.captures.list()) await svc.service.app.captures.remove(c.name);
});

describe('executions: history', () => {
  it('answers at most 50 stored executions by default, newest first, with logs and results', async () => {
    await seed(range(1, 60).map((i) => record(i)));
    const res = await api('GET', '/api/executions');
    assert.equal(res.status, 200);
    assert.deepEqual(ids(res.body), range(11, 60).reverse().map((i) => `exec_${i}`));
    // Records written before outcomes answer their status's outcome.
    assert.deepEqual(res.body[0], withOutcome(record(60)));
    assert.equal(res.body[0].outcome, 'error');
  });

  it('pages with limit and offset (limit 1..1000)', async () => {
    await seed(range(1, 60).map((i) => record(i)));
    const page = await api('GET', '/api/executions?limit=10&offset=5');
    assert.deepEqual(ids(page.body), range(46, 55).reverse().map((i) => `exec_${i}`));
    assert.equal((await api('GET', '/api/executions?limit=1000')).body.length, 60);
    assert.deepEqual(ids((await api('GET', '/api/executions?offset=58')).body), ['exec_2', 'exec_1']);
    assert.deepEqual((await api('GET', '/api/executions?offset=100')).body, []);
    for (const query of ['limit=0', 'limit=1001', 'limit=abc', 'offset=-1', 'status=done', 'taskId=']) {
      const res = await api('GET', `/api/executions?${query}`);
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], query);
      assert.match(res.body.details, /querystring\.(limit|offset|status|taskId)/, query);
    }
  });

  it('filters by status and by taskId, alone and together', async () => {
    await seed([...range(1, 12).map((i) => record(i)), record(13, { status: 'running', finishedAt: undefined })]);
    const errors = await api('GET', '/api/executions?status=error');
    assert.deepEqual(ids(errors.body), ['exec_12', 'exec_9', 'exec_6', 'exec_3']);
    const even = await api('GET', '/api/executions?taskId=task_even');
    assert.deepEqual(ids(even.body), ['exec_12', 'exec_10', 'exec_8', 'exec_6', 'exec_4', 'exec_2']);
    const both = await api('GET', '/api/executions?taskId=task_even&status=error&limit=1');
    assert.deepEqual(ids(both.body), ['exec_12']);
    const running = await api('GET', '/api/executions?status=running');
    assert.deepEqual(ids(running.body), ['exec_13']);
    assert.equal(running.body[0].finishedAt, undefined);
    assert.deepEqual((await api('GET', '/api/executions?taskId=task_none')).body, []);
  });

  it('orders by startedAt, not by insertion order', async () => {
    await seed([record(5), record(1), record(9), record(3)]);
    assert.deepEqual(ids((await api('GET', '/api/executions')).body), ['exec_9', 'exec_5', 'exec_3', 'exec_1']);
  });
});

describe('executions: /list summaries', () => {
  it('answers summary fields only (no logs, no result) to the API key, with the same query parameters', async () => {
    await seed(range(1, 60).map((i) => record(i, { webhook: { delivered: true } })));
    const res = await api('GET', '/api/executions/list');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['executions']);
    assert.equal(res.body.executions.length, 50);
    assert.deepEqual(res.body.executions[0], {
      executionId: 'exec_60', taskId: 'task_even', taskName: 'Task 0', status: 'error', trigger: 'api',
      startedAt: record(60).startedAt, durationMs: 250, outcome: 'error',
    });
    for (const entry of res.body.executions) assert.deepEqual(Object.keys(entry).sort(), SUMMARY_FIELDS);
    assert.ok(!res.text.includes('action 60') && !res.text.includes('rows'), 'logs or results leaked into /list');
    const filtered = await api('GET', '/api/executions/list?status=error&taskId=task_odd&limit=2&offset=1');
    assert.deepEqual(ids(filtered.body.executions), ['exec_51', 'exec_45']);
    assert.equal((await api('GET', '/api/executions/list?limit=5000')).status, 400);
  });

  it('refuses a dashboard session with 403 FORBIDDEN and an anonymous caller with 401', async () => {
    await seed([record(1)]);
    const session = await svc.request('GET', '/api/executions/list', { cookie });
    assert.deepEqual([session.status, session.body.error], [403, 'FORBIDDEN']);
    const anonymous = await svc.request('GET', '/api/executions/list');
    assert.deepEqual([anonymous.status, anonymous.body.error], [401, 'UNAUTHORIZED']);
    const wrongKey = await svc.request('GET', '/api/executions/list', { apiKey: 'not-the-key' });
    assert.deepEqual([wrongKey.status, wrongKey.body.error], [401, 'UNAUTHORIZED']);
    const bearer = await svc.request('GET', '/api/executions/list', { headers: { authorization: `Bearer ${apiKey}` } });
    assert.deepEqual(ids(bearer.body.executions), ['exec_1']);
  });
});

describe('executions: detail, delete, clear', () => {
  it('answers one full record, extra fields included, to a session or the API key', async () => {
    const full = record(7, {
      status: 'error',
      result: { data: null, finalUrl: 'https://example.com/x', title: 'X', captures: ['exec_7_1.png'], error: { message: 'boom', actionIndex: 2 }, extra: { a: 1 } },
      logs: [{ at: record(7).startedAt, level: 'error', message: 'boom', actionIndex: 2 }],
      webhook: { url: 'https://hooks.example.com/', delivered: false, error: 'timeout' },
    });
    await seed([full]);
    for (const auth of [{ apiKey }, { cookie }]) {
      const res = await svc.request('GET', '/api/executions/exec_7', auth);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, withOutcome(full));
    }
  });

  it('answers 404 EXECUTION_NOT_FOUND for an unknown id on GET and DELETE', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await api(method, '/api/executions/exec_missing');
      assert.deepEqual([res.status, res.body.error], [404, 'EXECUTION_NOT_FOUND'], method);
      assert.match(res.body.details, /exec_missing/);
    }
  });

  it('deletes one execution and its capture files, and no one else\'s', async () => {
    await seed([record(1), record(10)]);
    const { captures } = svc.service.app;
    const mine = [await captures.save('exec_1', PNG, 'png'), await captures.save('exec_1', PNG, 'webm')];
    const theirs = await captures.save('exec_10', PNG, 'png');
    assert.deepEqual(mine.map((c) => c.name), ['exec_1_1.png', 'exec_1_2.webm']);
    const res = await api('DELETE', '/api/executions/exec_1');
    assert.deepEqual([res.status, res.body], [200, { success: true }]);
    assert.equal((await api('GET', '/api/executions/exec_1')).status, 404);
    for (const c of mine) assert.equal(await exists(captures.pathOf(c.name)), false, c.name);
    assert.equal(await exists(captures.pathOf(theirs.name)), true);
    assert.deepEqual(ids((await api('GET', '/api/executions')).body), ['exec_10']);
    assert.equal((await api('DELETE', '/api/executions/exec_1')).status, 404);
  });

  it('clear deletes every record and their capture files', async () => {
    await seed(range(1, 5).map((i) => record(i)));
    const { captures } = svc.service.app;
    for (const i of range(1, 5)) await captures.save(`exec_${i}`, PNG, 'png');
    const orphan = await captures.save('exec_without_record', PNG, 'png');
    const res = await svc.request('POST', '/api/executions/clear', { cookie });
    assert.deepEqual([res.status, res.body], [200, { success: true }]);
    assert.deepEqual((await api('GET', '/api/executions')).body, []);
    assert.equal(await store().count(), 0);
    // Captures of executions that were never recorded are not theirs: they stay.
    assert.deepEqual((await captures.list()).map((c) => c.name), [orphan.name]);
    assert.deepEqual((await api('POST', '/api/executions/clear')).body, { success: true });
  });

  it('answers 401 to an anonymous caller on every executions route', async () => {
    await seed([record(1)]);
    const routes = svc.service.app.routeTable.filter((r) => r.url.startsWith('/api/executions') && r.method !== 'HEAD');
    assert.ok(routes.length >= 5);
    for (const route of routes) {
      const res = await svc.request(route.method, route.url.replace(':id', 'exec_1'));
      assert.deepEqual([res.status, res.body.error], [401, 'UNAUTHORIZED'], `${route.method} ${route.url}`);
    }
    assert.equal(await store().count(), 1);
  });
});

describe('executions: start-up recovery', () => {
  it('turns executions left queued or running into interrupted, with finishedAt, when the service restarts', async () => {
    const dir = await makeTempDir();
    try {
      const first = await startService({}, dir);
      const { apiKey: key } = await setupAdmin(first);
      const executions = first.service.services.storage.executions;
      await executions.insert(record(1, { status: 'running', finishedAt: undefined, durationMs: 0 }));
      await executions.insert(record(2, { status: 'queued', finishedAt: undefined, durationMs: 0 }));
      const finished = record(3, { status: 'success' });
      await executions.insert(finished);
      await first.close();

      const before = Date.now();
      const second = await startService({}, dir);
      try {
        const list = await second.request('GET', '/api/executions', { apiKey: key });
        const byId = new Map<string, ExecutionRecord>(list.body.map((e: ExecutionRecord) => [e.executionId, e]));
        for (const id of ['exec_1', 'exec_2']) {
          const e = byId.get(id)!;
          assert.equal(e.status, 'interrupted', id);
          assert.ok(e.finishedAt && Date.parse(e.finishedAt) >= before - 1000, `${id} finishedAt ${e.finishedAt}`);
          assert.deepEqual(e.logs, record(Number(id.slice(5))).logs);
        }
        assert.deepEqual(byId.get('exec_3'), withOutcome(finished));
        assert.equal(byId.get('exec_1')!.outcome, 'interrupted');
        const interrupted = await second.request('GET', '/api/executions/list?status=interrupted', { apiKey: key });
        assert.deepEqual(ids(interrupted.body.executions), ['exec_2', 'exec_1']);
        assert.equal(await second.service.services.storage.executions.count({ status: 'running' }), 0);
      } finally {
        await second.close();
      }
    } finally {
      await fs.rm(path.resolve(dir), { recursive: true, force: true });
    }
  });
});
