// Task files (README "Task files"): upload as the raw body, listing, limits, serving, delete, and removal with the task.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const MAX = 4096;
let svc: TestService, apiKey: string;

async function put(taskId: string, name: string, body: Uint8Array, type = 'application/octet-stream') {
  const response = await fetch(`${svc.baseUrl}/api/tasks/${taskId}/files/${name}`, {
    method: 'PUT', headers: { 'x-api-key': apiKey, 'content-type': type }, body: body as BodyInit,
  });
  return { status: response.status, body: await response.json() as any };
}

async function newTask(name: string): Promise<string> {
  const created = await svc.request('POST', '/api/tasks', { apiKey, body: { name, url: 'https://example.com', mode: 'agent', actions: [] } });
  assert.equal(created.status, 200, created.text);
  return created.body.id;
}

before(async () => {
  svc = await startService({ TASK_FILE_MAX_BYTES: String(MAX), TASK_FILES_MAX: '3' });
  ({ apiKey } = await setupAdmin(svc));
});
after(() => svc.close());

describe('task files API', () => {
  it('stores, lists, serves byte-identical and deletes a file; JSON bodies are kept as bytes too', async () => {
    const id = await newTask('files');
    const bytes = crypto.randomBytes(3000);
    const stored = await put(id, 'data.bin', bytes);
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    assert.deepEqual([stored.body.name, stored.body.size, stored.body.contentType], ['data.bin', 3000, 'application/octet-stream']);
    const json = await put(id, 'rows.json', Buffer.from('{"a":1}'), 'application/json');
    assert.equal(json.status, 200);
    assert.equal(json.body.contentType, 'application/json');

    const list = await svc.request('GET', `/api/tasks/${id}/files`, { apiKey });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.files.map((f: any) => [f.name, f.size]), [['data.bin', 3000], ['rows.json', 7]]);
    assert.equal(list.body.maxBytes, MAX);

    const served = await fetch(`${svc.baseUrl}/api/tasks/${id}/files/data.bin`, { headers: { 'x-api-key': apiKey } });
    assert.equal(served.status, 200);
    assert.ok(Buffer.from(await served.arrayBuffer()).equals(bytes));
    const text = await fetch(`${svc.baseUrl}/api/tasks/${id}/files/rows.json`, { headers: { 'x-api-key': apiKey } });
    assert.equal(await text.text(), '{"a":1}');

    const removed = await svc.request('DELETE', `/api/tasks/${id}/files/data.bin`, { apiKey });
    assert.equal(removed.status, 200);
    const again = await svc.request('DELETE', `/api/tasks/${id}/files/data.bin`, { apiKey });
    assert.equal(again.status, 404);
    assert.match(again.body.details, /Task file data\.bin not found/);
    assert.deepEqual((await svc.request('GET', `/api/tasks/${id}/files`, { apiKey })).body.files.map((f: any) => f.name), ['rows.json']);
  });

  it('refuses a file over the limit with 413 (announced or streamed), keeping nothing, and a bad name or a file too many with 400', async () => {
    const id = await newTask('limits');
    const big = await put(id, 'big.bin', crypto.randomBytes(MAX + 1));
    assert.equal(big.status, 413);
    assert.equal(big.body.error, 'PAYLOAD_TOO_LARGE');
    assert.match(big.body.details, new RegExp(String(MAX)));
    // Chunked (no Content-Length): stopped as it streams in.
    const chunked = await fetch(`${svc.baseUrl}/api/tasks/${id}/files/big.bin`, {
      method: 'PUT', headers: { 'x-api-key': apiKey, 'content-type': 'application/octet-stream' }, duplex: 'half',
      body: new ReadableStream({ start(c) { for (let i = 0; i < 5; i++) c.enqueue(crypto.randomBytes(1000)); c.close(); } }),
    } as RequestInit);
    assert.equal(chunked.status, 413);
    assert.deepEqual((await svc.request('GET', `/api/tasks/${id}/files`, { apiKey })).body.files, []);

    const bad = await put(id, '.hidden', Buffer.from('x'));
    assert.equal(bad.status, 400);
    for (const name of ['a.txt', 'b.txt', 'c.txt']) assert.equal((await put(id, name, Buffer.from(name))).status, 200);
    const fourth = await put(id, 'd.txt', Buffer.from('d'));
    assert.equal(fourth.status, 400);
    assert.match(fourth.body.details, /at most 3 files/);
    assert.equal((await put(id, 'a.txt', Buffer.from('replaced'))).status, 200, 'replacing one is no file more');
  });

  it('answers 404 for an unknown task, and deleting a task deletes its files', async () => {
    assert.equal((await put('no-such-task', 'a.txt', Buffer.from('a'))).status, 404);
    const id = await newTask('doomed');
    assert.equal((await put(id, 'keep.txt', Buffer.from('k'))).status, 200);
    const blobsBefore = await svc.service.app.services.blob.list('taskfile.');
    assert.equal((await svc.request('DELETE', `/api/tasks/${id}`, { apiKey })).status, 200);
    const blobsAfter = await svc.service.app.services.blob.list('taskfile.');
    assert.equal(blobsAfter.length, blobsBefore.length - 1);
  });
});
