// POST /api/tasks/import and `taskloom import` with the replaced product's task export
// (test/fixtures/replaced-product/tasks-export.json: a list page with a foreach, a form, get_content, expression
// javascript, an HTML-based extraction script), run in real Chromium on the local pages: each imported task gives
// the same data as the same task written natively. An export holding what cannot be mapped imports nothing.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../cli/main.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { makeTempDir, setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const EXPORT_FILE = new URL('../fixtures/replaced-product/tasks-export.json', import.meta.url);

/** The same three tasks, written for taskloom by hand. */
const NATIVE: Record<string, Record<string, unknown>> = {
  'rp-shop-list': {
    url: '{$origin}/runner/shop.html',
    actions: [
      { type: 'javascript', value: 'return document.title' },
      { type: 'set', varName: 'title' },
      { type: 'get_content', selector: '#t tr.row:first-child td.name' },
      { type: 'set', varName: 'first' },
      { type: 'foreach', selector: 'td.name' },
      { type: 'javascript', value: "document.querySelector('#cart').append(Object.assign(document.createElement('li'), { textContent: '{$loop.index}:{$loop.text}' }))" },
      { type: 'end' },
      { type: 'if', value: "document.querySelector('#cart li:last-child')?.textContent.endsWith('Cherry')" },
      { type: 'set', varName: 'complete', value: 'true' },
      { type: 'else' },
      { type: 'set', varName: 'complete', value: 'false' },
      { type: 'end' },
      { type: 'javascript', value: "for (const [k, v] of Object.entries({ title: '{$title}', first: '{$first}', complete: '{$complete}' })) document.body.dataset[k] = v;" },
    ],
    extractionScript: `const b = document.body.dataset;
return {
  title: b.title, first: b.first, complete: b.complete,
  rows: [...document.querySelectorAll('tr.row')].map((row) => ({ sku: row.dataset.sku, name: row.querySelector('.name').textContent.trim() })),
  cart: [...document.querySelectorAll('#cart li')].map((li) => li.textContent),
  path: location.pathname,
};`,
  },
  'rp-search-form': {
    url: '{$origin}/form.html',
    variables: { q: 'pears' },
    actions: [
      { type: 'type', selector: '#query', value: '{$q}' },
      { type: 'click', selector: '#submit' },
      { type: 'wait_selector', selector: '#result', timeoutMs: 5000 },
      { type: 'get_content', selector: '#result' },
      { type: 'set', varName: 'result' },
    ],
    extractionScript: "return { result: '{$result}', shown: document.querySelector('#result').textContent, path: location.pathname }",
  },
  'rp-title-scrape': {
    url: '{$origin}/second.html',
    mode: 'scrape',
    actions: [],
    extractionScript: "({ title: document.title, hasHtml: document.documentElement.outerHTML.startsWith('<html') })",
  },
};

const EXPECTED: Record<string, unknown> = {
  'rp-shop-list': {
    title: 'Runner shop', first: 'Apple', complete: 'true',
    rows: [{ sku: 'a1', name: 'Apple' }, { sku: 'b2', name: 'Banana' }, { sku: 'c3', name: 'Cherry' }],
    cart: ['0:Apple', '1:Banana', '2:Cherry'],
    path: '/runner/shop.html',
  },
  'rp-search-form': { result: 'q=pears', shown: 'q=pears', path: '/form-result.html' },
  'rp-title-scrape': { title: 'Second page', hasHtml: true },
};

describe("importing the replaced product's task export", { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let exported: Array<Record<string, any>>;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const run = async (id: string) => {
    const res = await api('POST', `/api/tasks/${id}/api`, { body: { variables: { origin: pages.origin } } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success', JSON.stringify(res.body.result?.error));
    return res.body.result.data;
  };

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
    exported = JSON.parse(await readFile(EXPORT_FILE, 'utf8'));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('imports every task of the export, reporting what it left out, and maps the actions', async () => {
    const res = await api('POST', '/api/tasks/import', { body: exported });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.created.sort(), ['rp-search-form', 'rp-shop-list', 'rp-title-scrape']);
    assert.deepEqual(res.body.converted.map((c: { taskId: string }) => c.taskId), ['rp-shop-list', 'rp-search-form', 'rp-title-scrape']);
    assert.deepEqual(res.body.converted.find((c: { taskId: string }) => c.taskId === 'rp-shop-list').notes, []);

    const form = (await api('GET', '/api/tasks/rp-search-form')).body;
    assert.deepEqual(form.variables, { origin: 'http://127.0.0.1:9', q: 'pears' });
    assert.deepEqual(form.actions.map((a: { type: string }) => a.type), ['javascript', 'type', 'click', 'wait_selector', 'get_content', 'set', 'javascript'],
      'the product replaces a field\'s text: it is emptied before typing');
    assert.deepEqual(form.actions[3], { id: 'f3', type: 'wait_selector', selector: '#result', timeoutMs: 5000 }, 'seconds become milliseconds');
    assert.deepEqual(form.actions[5], { id: 'f5', type: 'set', varName: 'result' }, '{$block.output} is the previous output');
    const list = (await api('GET', '/api/tasks/rp-shop-list')).body;
    assert.equal(list.description, exported[0]!.description);
    assert.match(list.extractionScript, /\$\$data\.html\(\)/);
  });

  for (const id of Object.keys(NATIVE)) {
    it(`runs "${id}" to the same data as the task written natively`, async () => {
      const created = await api('POST', '/api/tasks', { body: { name: `native ${id}`, mode: 'agent', variables: {}, ...NATIVE[id] } });
      assert.equal(created.status, 200, created.text);
      const [imported, native] = [await run(id), await run(created.body.id)];
      assert.deepEqual(imported, EXPECTED[id]);
      assert.deepEqual(native, imported);
    });
  }

  it('imports nothing when a task holds what cannot be mapped: 422 IMPORT_UNMAPPED naming each task and what', async () => {
    const before = (await api('GET', '/api/tasks')).body.length;
    const bad = [
      { ...exported[0], id: 'rp-fine' },
      { id: 'rp-loops', name: 'Loops', url: 'https://example.com/', mode: 'agent', actions: [{ type: 'while', value: 'true' }, { type: 'end' }, { type: 'click', selector: '120,40' }] },
      { id: 'rp-csv', name: 'As CSV', url: 'https://example.com/', mode: 'agent', actions: [], extractionFormat: 'csv' },
    ];
    const res = await api('POST', '/api/tasks/import', { body: bad });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.error, 'IMPORT_UNMAPPED');
    assert.match(res.body.details, /2 of 3 task\(s\)/);
    assert.match(res.body.details, /task 2 "Loops" \(id rp-loops\): action 1 \(while\): "while" has no taskloom equivalent; action 3 \(click\): it acts at page coordinates \(120,40\)/);
    assert.match(res.body.details, /task 3 "As CSV" \(id rp-csv\): extractionFormat "csv"/);
    assert.equal((await api('GET', '/api/tasks')).body.length, before, 'nothing imported');
    assert.equal((await api('GET', '/api/tasks/rp-fine')).status, 404);
  });

  it('taskloom import sends the file: conflicts follow --on-conflict, a refusal lists the tasks one a line', async () => {
    const dir = await makeTempDir();
    const file = path.join(dir, 'export.json');
    await writeFile(file, JSON.stringify(exported));
    const cli = async (...args: string[]) => {
      const [stdout, stderr] = [new PassThrough(), new PassThrough()];
      const out: string[] = [];
      const err: string[] = [];
      stdout.on('data', (chunk) => out.push(String(chunk)));
      stderr.on('data', (chunk) => err.push(String(chunk)));
      const code = await runCli(['import', ...args, '--url', svc.baseUrl, '--api-key', apiKey], { stdout, stderr, env: {} });
      return { code, out: out.join(''), err: err.join('') };
    };
    const conflict = await cli(file);
    assert.equal(conflict.code, 1, conflict.err);
    assert.match(conflict.err, /IMPORT_CONFLICT/);
    const replaced = await cli(file, '--on-conflict', 'replace');
    assert.equal(replaced.code, 0, replaced.err);
    assert.match(replaced.out, /^created 0, replaced 3, skipped 0\nrp-shop-list {2}Shop list\n/);
    await writeFile(file, JSON.stringify([{ id: 'rp-x', name: 'X', url: 'https://example.com/', actions: [{ type: 'repeat', value: '3' }, { type: 'end' }] }]));
    const refused = await cli(file);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /IMPORT_UNMAPPED: Nothing imported: 1 of 1 task\(s\)[^\n]*\n {2}task 1 "X" \(id rp-x\): action 1 \(repeat\)/);
  });
});
