// Large results (README "Large results"): a run whose result is over RESULT_INLINE_MAX_BYTES (4 KiB here) keeps a
// slim result and a marker in its record, the whole result in the blob store, served byte for byte by
// `GET /api/executions/{id}/result`; the history does not carry it, the webhook gets its link, the export the data;
// deleting the execution removes the blob, and the sweep removes a blob no record names. JSON and PostgreSQL storage.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { sweepOrphanResults } from '../../layers/stored-results/orphan-sweep.js';
import { storeResultApart } from '../../layers/stored-results/store-apart.js';
import { runTaskloom } from '../cli/cli-process.js';
import { startWebhookReceiver, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const ROWS = 400;
const MAX = 4096;

/** A page listing `rows` products: mode http's field mapping turns it into `rows` objects (about 60 bytes each). */
async function startProductPages(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const rows = Number(new URL(request.url!, 'http://x').searchParams.get('rows') ?? ROWS);
    const items = Array.from({ length: rows }, (_, i) => `<li class="p" data-sku="SKU-${i}"><span>Product number ${i} ✓</span></li>`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Products</title><ul>${items.join('')}</ul>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const MAPPING = { list: 'li.p', fields: [{ name: 'sku', attribute: 'data-sku' }, { name: 'name', selector: 'span' }] };

const postgresSkip = await postgresUnavailable();
if (postgresSkip) console.log(`# skipping the PostgreSQL case: ${postgresSkip}`);

for (const storage of ['json', 'postgres'] as const) {
  describe(`large results stored apart (STORAGE=${storage})`, { skip: storage === 'postgres' ? postgresSkip : false }, () => {
    let svc: TestService;
    let pages: Awaited<ReturnType<typeof startProductPages>>;
    let receiver: WebhookReceiver;
    let database: TestDatabase | undefined;
    let apiKey: string;
    let taskId: string;
    const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
    const run = async (rows: number, body: Record<string, unknown> = {}) => {
      const saved = await api('PATCH', `/api/tasks/${taskId}`, { body: { url: `${pages.origin}/?rows=${rows}` } });
      assert.equal(saved.status, 200, saved.text);
      const res = await api('POST', `/api/tasks/${taskId}/api`, { body });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'success', res.text);
      return res.body;
    };

    before(async () => {
      pages = await startProductPages();
      receiver = await startWebhookReceiver();
      database = storage === 'postgres' ? await createTestDatabase('taskloom_large') : undefined;
      svc = await startService({
        ALLOW_PRIVATE_NETWORKS: 'true', RESULT_INLINE_MAX_BYTES: String(MAX), STORAGE: storage, ...(database ? { DATABASE_URL: database.url() } : {}),
      });
      ({ apiKey } = await setupAdmin(svc));
      const task = await api('POST', '/api/tasks', { body: { name: 'products', mode: 'http', url: `${pages.origin}/`, actions: [], extract: MAPPING } });
      assert.equal(task.status, 200, task.text);
      taskId = task.body.id;
    });
    after(async () => {
      await svc?.close();
      await Promise.all([pages?.close(), receiver?.close(), database?.drop()]);
    });

    it('keeps a marker in the record and serves the whole result byte for byte; the history does not carry it', async () => {
      const answer = await run(ROWS);
      assert.equal(answer.result.data.length, ROWS, 'the waiting caller gets the whole result');
      const record = (await api('GET', `/api/executions/${answer.executionId}`)).body;
      const apart = record.resultStoredApart;
      assert.ok(apart, 'the record says its result is stored apart');
      assert.ok(apart.bytes > MAX, `${apart.bytes} bytes`);
      assert.equal(apart.url, `/api/executions/${answer.executionId}/result`);
      assert.equal(record.result.data, null);
      assert.equal(record.result.title, 'Products');
      assert.deepEqual(record.result.captures, []);

      const res = await fetch(svc.baseUrl + apart.url, { headers: { 'x-api-key': apiKey } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^application\/json/);
      const served = Buffer.from(await res.arrayBuffer());
      const stored = await svc.service.services.blob.get(apart.name);
      assert.ok(stored, 'the blob exists');
      assert.ok(served.equals(Buffer.from(await text(stored.stream))), 'served byte for byte as stored');
      assert.equal(served.length, apart.bytes);
      assert.deepEqual(JSON.parse(served.toString('utf8')), answer.result);

      const list = await api('GET', '/api/executions?limit=10');
      const listed = list.body.find((e: { executionId: string }) => e.executionId === answer.executionId);
      assert.equal(listed.result.data, null, 'the history carries the marker, not the data');
      assert.deepEqual(listed.resultStoredApart, apart);
      assert.ok(list.text.length < apart.bytes, `the list (${list.text.length} bytes) is smaller than the one result`);
      const summaries = await api('GET', '/api/executions/list?limit=10');
      assert.doesNotMatch(summaries.text, /SKU-1/);

      const anonymous = await fetch(svc.baseUrl + apart.url);
      assert.equal(anonymous.status, 401, 'the same authentication as reading the execution');
      const unknown = await api('GET', '/api/executions/exec_none/result');
      assert.deepEqual([unknown.status, unknown.body.error], [404, 'EXECUTION_NOT_FOUND']);
    });

    it('keeps a small result inline, and serves it from the record', async () => {
      const answer = await run(3);
      const record = (await api('GET', `/api/executions/${answer.executionId}`)).body;
      assert.equal(record.resultStoredApart, undefined);
      assert.equal(record.result.data.length, 3);
      const res = await api('GET', `/api/executions/${answer.executionId}/result`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, record.result);
    });

    it('sends the webhook the link, not the body, and exports the data whole', async () => {
      const answer = await run(ROWS, { webhookUrl: `${receiver.url}/done` });
      const [hook] = await receiver.waitFor(1, 30_000);
      assert.equal(hook!.body.executionId, answer.executionId);
      assert.equal(hook!.body.result.data, null);
      assert.equal(hook!.body.resultStoredApart.url, `/api/executions/${answer.executionId}/result`);
      assert.ok(JSON.stringify(hook!.body).length < MAX, 'the webhook body stays small');

      const exported = await api('GET', '/api/executions/export?format=ndjson');
      assert.equal(exported.status, 200, exported.text);
      const line = exported.text.trim().split('\n').map((l) => JSON.parse(l)).find((r) => r.executionId === answer.executionId);
      assert.equal(line.result.data.length, ROWS, 'the export carries the data');
      assert.equal(line.resultStoredApart, undefined);
    });

    it('compares a run with the previous one whose result is stored apart', async () => {
      const compared = await api('PATCH', `/api/tasks/${taskId}`, { body: { compare: { key: ['sku'] } } });
      assert.equal(compared.status, 200, compared.text);
      try {
        const first = await run(ROWS);
        const second = await run(ROWS + 2);
        const record = (await api('GET', `/api/executions/${second.executionId}`)).body;
        assert.equal(record.comparedWith, first.executionId);
        assert.equal(record.changed, true);
        assert.deepEqual(record.diff.counts, { added: 2, removed: 0, changed: 0 }, 'the previous rows were read from its blob');
      } finally {
        await api('PATCH', `/api/tasks/${taskId}`, { body: { compare: null } });
      }
    });

    it('taskloom run --wait prints the whole result, read from where it is stored', { skip: storage === 'postgres' ? 'the CLI reads the API alike whatever the storage' : false }, async () => {
      await api('PATCH', `/api/tasks/${taskId}`, { body: { url: `${pages.origin}/?rows=${ROWS}` } });
      const { code, stdout, stderr } = await runTaskloom(['run', taskId, '--wait'], { TASKLOOM_URL: svc.baseUrl, TASKLOOM_API_KEY: apiKey });
      assert.equal(code, 0, stderr);
      const printed = JSON.parse(stdout);
      assert.equal(printed.result.data.length, ROWS);
      const record = (await api('GET', `/api/executions/${printed.executionId}`)).body;
      assert.ok(record.resultStoredApart, 'the run it printed was stored apart');
    });

    it('removes the blob with its execution, and sweeps a blob no record names', async () => {
      const { blob, storage: stores, logger } = svc.service.services;
      const answer = await run(ROWS);
      const { name } = (await api('GET', `/api/executions/${answer.executionId}`)).body.resultStoredApart;
      const orphan = `result.${answer.executionId}.0123456789ab.json`; // a second writer's, or a crash's leftover
      await blob.put(orphan, Buffer.from('{}'), { contentType: 'application/json' });
      assert.equal(await sweepOrphanResults(blob, stores.executions, logger, 60_000), 0, 'a young blob stays');
      assert.equal(await sweepOrphanResults(blob, stores.executions, logger, 0), 1);
      assert.equal(await blob.stat(orphan), undefined);
      assert.ok(await blob.stat(name), 'the blob its record names stays');

      const removed = await api('DELETE', `/api/executions/${answer.executionId}`);
      assert.equal(removed.status, 200, removed.text);
      assert.equal(await blob.stat(name), undefined, 'deleted with its execution');
      const gone = await api('GET', `/api/executions/${answer.executionId}/result`);
      assert.deepEqual([gone.status, gone.body.error], [404, 'EXECUTION_NOT_FOUND']);

      const more = await run(ROWS);
      const other = (await api('GET', `/api/executions/${more.executionId}`)).body.resultStoredApart.name;
      assert.equal((await api('POST', '/api/executions/clear')).status, 200);
      assert.equal(await blob.stat(other), undefined, 'cleared with the history');
    });
  });
}

describe('large results: retention and configuration', () => {
  it('retention prunes an old execution with its stored-apart result', async () => {
    const svc = await startService();
    try {
      const { apiKey } = await setupAdmin(svc);
      const { blob, storage } = svc.service.services;
      const at = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000).toISOString();
      const data = Array.from({ length: 200 }, (_, i) => ({ row: i, text: 'x'.repeat(40) }));
      const recorded = await storeResultApart(blob, 'exec_old_large', { data, captures: [] }, 1024);
      assert.ok(recorded.resultStoredApart);
      await storage.executions.insert({
        executionId: 'exec_old_large', taskId: 'task_old', taskName: 'Old', status: 'success', trigger: 'api', startedAt: at, finishedAt: at,
        durationMs: 5, ...recorded, logs: [],
      });
      const pruned = await svc.request('POST', '/api/settings/retention', { apiKey, body: { days: 10 } });
      assert.deepEqual(pruned.body, { days: 10, source: 'setting', pruned: 1 });
      assert.equal(await blob.stat(recorded.resultStoredApart.name), undefined, 'the blob went with its record');
    } finally {
      await svc.close();
    }
  });

  it('refuses a bad RESULT_INLINE_MAX_BYTES at start-up with a line naming it', async () => {
    for (const value of ['a lot', '10', '2000000000']) {
      await assert.rejects(startService({ RESULT_INLINE_MAX_BYTES: value }),
        new RegExp(`^ConfigError: Invalid configuration: RESULT_INLINE_MAX_BYTES is "${value}"; expected a whole number from 1024 to 1073741824$`));
    }
  });
});
