import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import avro from 'avsc';
import { parse } from 'csv-parse/sync';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { Errors } from '../../kernel/errors.js';
import { executionFromAvro, SCHEMA_VERSION_METADATA, type ExecutionAvro } from '../../plugins/portability/avro/index.js';
import { withOutcome } from '../../layers/outcomes/outcome-of.js';
import { makeTempDir, setupAdmin, startService, type TestService } from '../support/service.js';

const T0 = Date.UTC(2025, 0, 1);
const CSV_HEADER = [
  'executionId', 'taskId', 'taskName', 'status', 'trigger', 'startedAt', 'finishedAt', 'durationMs',
  'finalUrl', 'title', 'errorMessage', 'errorActionIndex', 'captures', 'data', 'logs', 'outcome', 'changed', 'diff', 'violations', 'screenshots',
];

/** Execution `i` starts `i` seconds after T0 (so a higher `i` is newer); every third one failed. */
function record(i: number, overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const startedAt = new Date(T0 + i * 1000).toISOString();
  const failed = i % 3 === 0;
  return {
    executionId: `exec_${i}`, taskId: i % 2 === 0 ? 'task_even' : 'task_odd', taskName: `Task, "${i % 2}"`,
    status: failed ? 'error' : 'success', trigger: 'api', startedAt,
    finishedAt: new Date(T0 + i * 1000 + 250).toISOString(), durationMs: 250,
    result: failed
      ? { error: { message: `timeout at\nstep ${i}`, actionIndex: 2 } }
      : { data: { i, rows: [{ title: 'a,b' }] }, finalUrl: 'https://example.com/', title: 'Example', captures: [`exec_${i}_1.png`] },
    logs: [{ at: startedAt, level: 'info', message: `action ${i}`, actionIndex: 0 }],
    ...overrides,
  };
}

let svc: TestService;
let apiKey: string;
const tmp: string[] = [];
const store = () => svc.service.services.storage.executions;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const newestFirst = (ids: number[]) => ids.slice().reverse().map((i) => `exec_${i}`);

async function seed(records: ExecutionRecord[]): Promise<void> {
  for (let i = 0; i < records.length; i += 200) await Promise.all(records.slice(i, i + 200).map((r) => store().insert(r)));
}

async function download(query = ''): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(`${svc.baseUrl}/api/executions/export${query}`, { headers: { 'x-api-key': apiKey } });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

const ndjson = (body: Buffer): ExecutionRecord[] => body.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
const csv = (body: Buffer): string[][] => parse(body.toString('utf8'));

/** The records of an Avro container file, decoded by avsc, with the file's metadata. */
async function avroFile(body: Buffer): Promise<{ records: ExecutionRecord[]; meta: Record<string, Buffer>; values: ExecutionAvro[] }> {
  const dir = await makeTempDir('taskloom-export-');
  tmp.push(dir);
  const file = path.join(dir, 'export.avro');
  await fs.writeFile(file, body);
  const decoder = avro.createFileDecoder(file);
  let meta: Record<string, Buffer> = {};
  decoder.on('metadata', (_type, _codec, header: { meta: Record<string, Buffer> }) => { meta = header.meta; });
  const values: ExecutionAvro[] = [];
  for await (const value of decoder) values.push(value as ExecutionAvro);
  return { records: values.map(executionFromAvro), meta, values };
}

before(async () => {
  svc = await startService();
  ({ apiKey } = await setupAdmin(svc));
});
after(async () => {
  await svc.close();
  for (const dir of tmp) await fs.rm(dir, { recursive: true, force: true });
});
beforeEach(async () => { await store().clear(); });

describe('portability: GET /api/executions/export', () => {
  it('streams NDJSON by default: one stored record a line, newest first, as a download', async () => {
    const extra = record(7, { sessionId: 'sess_1', result: { data: null, pageCount: 3 } });
    const running = record(8, { status: 'running', finishedAt: undefined, result: {} });
    delete running.finishedAt;
    await seed([...range(1, 6).map((i) => record(i)), extra, running]);
    const res = await download();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/x-ndjson; charset=utf-8');
    assert.match(res.headers.get('content-disposition')!, /^attachment; filename="taskloom-executions-[\dT-]+Z\.ndjson"$/);
    const lines = ndjson(res.body);
    // A record older than outcomes is exported with its status's outcome; a running one has none yet.
    assert.deepEqual(lines, [running, extra, ...range(1, 6).reverse().map((i) => record(i))].map(withOutcome));
    assert.equal(lines[2].outcome, 'error');
  });

  it('writes CSV with a header row of flat columns, nested values as JSON text, read back by csv-parse', async () => {
    const diff = { changed: true, counts: { added: 1, removed: 0, changed: 0 }, added: [{ sku: 'C' }], removed: [], rows: [] };
    const violations = [{ rule: 'minRows', message: '1 rows, expected at least 2', examples: [{ sku: 'C' }] }];
    await seed(range(1, 6).map((i) => (i === 4 ? record(i, { changed: true, diff, violations }) : record(i))));
    const res = await download('?format=csv');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
    assert.match(res.headers.get('content-disposition')!, /filename="taskloom-executions-.+\.csv"/);
    const [header, ...rows] = csv(res.body);
    assert.deepEqual(header, CSV_HEADER);
    assert.equal(rows.length, 6);
    const cells = (row: string[]) => Object.fromEntries(header!.map((name, k) => [name, row[k]]));
    const ok = cells(rows[1]!); // exec_5
    assert.deepEqual(
      [ok.executionId, ok.taskName, ok.status, ok.durationMs, ok.finalUrl, ok.errorMessage, ok.errorActionIndex],
      ['exec_5', 'Task, "1"', 'success', '250', 'https://example.com/', '', ''],
    );
    assert.equal(ok.outcome, 'success');
    assert.deepEqual(JSON.parse(ok.data!), record(5).result.data);
    assert.deepEqual(JSON.parse(ok.captures!), ['exec_5_1.png']);
    assert.deepEqual(JSON.parse(ok.logs!), record(5).logs);
    assert.deepEqual([ok.changed, ok.diff, ok.violations], ['', '', ''], 'a run without the checks has empty cells');
    const checked = cells(rows[2]!); // exec_4
    assert.deepEqual([checked.changed, JSON.parse(checked.diff!), JSON.parse(checked.violations!)], ['true', diff, violations]);
    const failed = cells(rows[0]!); // exec_6
    assert.deepEqual([failed.errorMessage, failed.errorActionIndex, failed.data], ['timeout at\nstep 6', '2', '']);
  });

  it('writes an Avro object container file of the latest schema that avsc decodes back into the records', async () => {
    const extra = record(4, { sessionId: 'sess_1' });
    // The fields runs gained later: a retry's attempt, the variables given, the failure screenshot, the trace.
    const retried = record(5, {
      attempt: 2, variables: { who: 'Ada', password: 's3cret' },
      result: { error: Object.assign({ message: 'failed', actionIndex: 1, screenshot: 'exec_5_1.png' }, { code: 'E1' }), trace: 'exec_5_2.zip', captures: ['exec_5_1.png'] },
    });
    await seed([...range(1, 3).map((i) => record(i)), extra, retried]);
    const res = await download('?format=avro');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/avro');
    assert.match(res.headers.get('content-disposition')!, /filename="taskloom-executions-.+\.avro"/);
    assert.deepEqual([...res.body.subarray(0, 4)], [0x4f, 0x62, 0x6a, 0x01]); // "Obj" 1
    const { records, meta, values } = await avroFile(res.body);
    const shown = { ...retried, variables: { who: 'Ada', password: '****' } }; // masked as every answer shows it
    assert.deepEqual(records, [shown, extra, ...range(1, 3).reverse().map((i) => record(i))].map(withOutcome));
    assert.ok(!res.body.includes('s3cret'), 'a secret-looking variable never leaves masked');
    // Each in a column of its own, not in extraJson.
    assert.deepEqual([values[0]!.attempt, values[0]!.variablesJson, values[0]!.result.trace, values[0]!.result.error?.screenshot, values[0]!.extraJson],
      [2, JSON.stringify({ who: 'Ada', password: '****' }), 'exec_5_2.zip', 'exec_5_1.png', null]);
    assert.equal(values[0]!.result.error?.extraJson, JSON.stringify({ code: 'E1' }));
    assert.equal(meta[SCHEMA_VERSION_METADATA]!.toString(), '3');
    assert.equal(meta['avro.codec']!.toString(), 'deflate');
  });

  it('filters by taskId, status and an inclusive startedAt range, in every format', async () => {
    await seed(range(1, 12).map((i) => record(i)));
    const iso = (i: number) => new Date(T0 + i * 1000).toISOString();
    const cases: Array<[string, number[]]> = [
      ['taskId=task_even', [2, 4, 6, 8, 10, 12]],
      ['status=error', [3, 6, 9, 12]],
      ['taskId=task_even&status=error', [6, 12]],
      [`from=${iso(4)}&to=${iso(7)}`, [4, 5, 6, 7]],
      [`from=${encodeURIComponent(new Date(T0 + 10_000).toISOString().replace('Z', '+00:00'))}`, [10, 11, 12]],
      [`to=${iso(2)}&status=success`, [1, 2]],
      ['taskId=task_none', []],
      ['outcome=error', [3, 6, 9, 12]],
      ['outcome=anti_bot', []],
    ];
    for (const [query, expected] of cases) {
      const want = newestFirst(expected);
      assert.deepEqual(ndjson((await download(`?${query}`)).body).map((r) => r.executionId), want, query);
      assert.deepEqual(csv((await download(`?format=csv&${query}`)).body).slice(1).map((row) => row[0]), want, query);
      assert.deepEqual((await avroFile((await download(`?format=avro&${query}`)).body)).records.map((r) => r.executionId), want, query);
    }
  });

  it('pages through a history longer than a page without losing or repeating runs that share a start time', async () => {
    // 1,400 runs in groups of 7 sharing one millisecond, so ties straddle the 500-record page boundaries.
    const records = range(0, 1399).map((k) => record(k, { executionId: `exec_${k}`, startedAt: new Date(T0 + Math.floor(k / 7) * 1000).toISOString() }));
    await seed(records);
    const exported = ndjson((await download()).body).map((r) => r.executionId);
    assert.equal(exported.length, 1400);
    assert.equal(new Set(exported).size, 1400);
    const expected = (await store().summaries()).map((s) => s.executionId);
    assert.deepEqual(exported, expected);
    const bounded = ndjson((await download(`?to=${new Date(T0 + 100 * 1000).toISOString()}`)).body);
    assert.equal(bounded.length, 101 * 7);
  });

  it('reads storage only as fast as the client reads, and stops when the client goes away', async () => {
    // 3,000 runs of ~2 KB: six pages, far more than the socket buffers between server and client hold.
    const padding = 'x'.repeat(2000);
    await seed(range(1, 3000).map((i) => record(i, { result: { data: { padding } } })));
    const executions = store();
    const list = executions.list;
    let pages = 0;
    executions.list = function (query) {
      pages += 1;
      return list.call(this, query);
    };
    try {
      const abort = new AbortController();
      const response = await fetch(`${svc.baseUrl}/api/executions/export`, { headers: { 'x-api-key': apiKey }, signal: abort.signal });
      const first = await response.body!.getReader().read();
      assert.ok(first.value && first.value.length > 0);
      abort.abort();
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.ok(pages < 6, `read ${pages} of 6 pages for a client that took one chunk and left`);
    } finally {
      executions.list = list;
    }
  });

  it('answers a storage failure before the first record with its error, and breaks off (never ends cleanly) after it', async () => {
    await seed(range(1, 600).map((i) => record(i)));
    const executions = store();
    const list = executions.list;
    let calls = 0;
    let failOn = 1;
    executions.list = function (query) {
      calls += 1;
      if (calls === failOn) return Promise.reject(Errors.STORAGE_UNAVAILABLE({ reason: 'connection refused' }));
      return list.call(this, query);
    };
    try {
      const early = await svc.request('GET', '/api/executions/export?format=csv', { apiKey });
      assert.deepEqual([early.status, early.body.error], [503, 'STORAGE_UNAVAILABLE']);
      calls = 0;
      failOn = 2;
      const late = await fetch(`${svc.baseUrl}/api/executions/export`, { headers: { 'x-api-key': apiKey } });
      assert.equal(late.status, 200);
      await assert.rejects(late.text(), 'a truncated export must not look complete');
    } finally {
      executions.list = list;
    }
  });

  it('answers an empty export in each format: no lines, a header row, a valid Avro file without records', async () => {
    const empty = await download();
    assert.deepEqual([empty.status, empty.body.length], [200, 0]);
    assert.deepEqual(csv((await download('?format=csv')).body), [CSV_HEADER]);
    const file = await download('?format=avro');
    assert.equal(file.status, 200);
    assert.deepEqual((await avroFile(file.body)).records, []);
  });

  it('refuses a bad format, a bad timestamp or a range that ends before it starts with 400 VALIDATION_ERROR', async () => {
    for (const [query, field] of [
      ['format=xml', /querystring\.format must be one of ndjson, csv, avro/],
      ['from=yesterday', /querystring\.from/],
      ['to=2025-01-01', /querystring\.to/],
      ['status=done', /querystring\.status/],
      [`from=${new Date(T0 + 5000).toISOString()}&to=${new Date(T0).toISOString()}`, /from .* is after querystring\.to/],
    ] as const) {
      const res = await svc.request('GET', `/api/executions/export?${query}`, { apiKey });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], query);
      assert.match(res.body.details, field, query);
    }
  });

  it('is protected like the rest of the API and leaves /api/executions/:id working beside it', async () => {
    await seed([record(1)]);
    const anonymous = await svc.request('GET', '/api/executions/export');
    assert.deepEqual([anonymous.status, anonymous.body.error], [401, 'UNAUTHORIZED']);
    const one = await svc.request('GET', '/api/executions/exec_1', { apiKey });
    assert.deepEqual([one.status, one.body.executionId], [200, 'exec_1']);
    const missing = await svc.request('GET', '/api/executions/exports', { apiKey });
    assert.deepEqual([missing.status, missing.body.error], [404, 'EXECUTION_NOT_FOUND']);
    assert.equal((await download()).headers.get('content-type'), 'application/x-ndjson; charset=utf-8');
  });

  it('appears in the OpenAPI document with its query parameters and media types', async () => {
    const { body } = await svc.request('GET', '/api/openapi.json');
    const operation = body.paths['/api/executions/export'].get;
    assert.deepEqual(operation.parameters.map((p: { name: string }) => p.name).sort(), ['format', 'from', 'outcome', 'status', 'taskId', 'to', 'trigger']);
    assert.deepEqual(Object.keys(operation.responses['200'].content).sort(), ['application/avro', 'application/x-ndjson', 'text/csv']);
    assert.ok(body.paths['/api/tasks/export'].get);
    assert.ok(body.paths['/api/tasks/import'].post.requestBody);
  });
});
