// Field mapping (a task's `extract`) and browserless mode (`mode: "http"`): the same mapping gives the same
// result.data in a browser run and in an http run (text normalisation, types, URLs); bad mappings and tasks mode
// http cannot run are refused with 400; an http run goes through the outbound rule and the task's proxy.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startCountingProxy, startPagesServer, type CountingProxy, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const PAGE = '/field-mapping/products.html';
const LIST = {
  list: 'li.product',
  fields: [
    { name: 'sku', attribute: 'data-sku' },
    { name: 'name', selector: 'a.name' },
    { name: 'link', selector: 'a.name', attribute: 'href', type: 'url' },
    { name: 'price', selector: '.price', type: 'number' },
    { name: 'added', selector: 'time.added', type: 'date' },
    { name: 'photo', selector: 'img.photo', attribute: 'src', type: 'url' },
    { name: 'alt', selector: 'img.photo', attribute: 'alt' },
    // An ancestor outside the row: matched as querySelector does, against the whole page, in both modes.
    { name: 'listed', selector: '#products .price', type: 'number' },
  ],
};

describe('field mapping and mode http', () => {
  let svc: TestService;
  let pages: PagesServer;
  let proxy: CountingProxy;
  let apiKey: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const save = (task: Record<string, unknown>) => api('POST', '/api/tasks', { body: { name: 'mapping', mode: 'http', url: `${pages.origin}${PAGE}`, actions: [], ...task } });
  const run = async (task: Record<string, unknown>) => {
    const saved = await save(task);
    assert.equal(saved.status, 200, saved.text);
    const res = await api('POST', `/api/tasks/${saved.body.id}/api`);
    assert.equal(res.status, 200, res.text);
    const record = (await api('GET', `/api/executions/${res.body.executionId}`)).body;
    return { answer: res.body, record };
  };

  before(async () => {
    pages = await startPagesServer();
    proxy = await startCountingProxy();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await Promise.all([pages?.close(), proxy?.close()]);
  });

  it('mode http: the mapping applied to the fetched HTML, recorded like a browser run', async () => {
    const { answer, record } = await run({ extract: LIST });
    assert.equal(answer.status, 'success', JSON.stringify(answer));
    const base = `${pages.origin}${PAGE}`;
    assert.deepEqual(answer.result.data, [
      { sku: 'A-1', name: 'Alpha widget', link: `${pages.origin}/items/alpha?ref=list`, price: 1234.5, added: '2024-03-05T10:00:00.000Z', photo: new URL('img/alpha.png', base).href, alt: 'Alpha photo', listed: 1234.5 },
      { sku: 'B-2', name: 'Betagadget', link: 'https://elsewhere.example/beta', price: -7, added: null, photo: null, alt: null, listed: -7 },
      { sku: 'C-3', name: 'Gamma', link: null, price: null, added: '2023-12-31T00:00:00.000Z', photo: `${pages.origin}/c.png`, alt: null, listed: null },
    ]);
    assert.equal(answer.result.title, 'Products list');
    assert.equal(answer.result.finalUrl, base);
    assert.deepEqual(answer.result.captures, []);
    assert.equal(record.status, 'success');
    assert.ok(record.durationMs >= 0 && typeof record.startedAt === 'string' && typeof record.finishedAt === 'string');
    const said = record.logs.map((l: { message: string }) => l.message).join('\n');
    assert.match(said, /mode http: no browser/);
    assert.match(said, /field mapping: 3 rows/);
  });

  it('without a list: one object from the page', async () => {
    const { answer } = await run({ extract: { fields: [{ name: 'heading', selector: 'h1' }, { name: 'count', selector: '#products li:last-child .added', type: 'date' }] } });
    assert.deepEqual(answer.result.data, { heading: 'Our products', count: '2023-12-31T00:00:00.000Z' });
  });

  it('gives the same data as a browser run of the same mapping, and as the script it converts to', { skip: chromium.skip }, async () => {
    const http = await run({ extract: LIST });
    const browser = await run({ mode: 'scrape', extract: LIST });
    assert.equal(browser.answer.status, 'success', JSON.stringify(browser.answer));
    assert.deepEqual(browser.answer.result.data, http.answer.result.data);
    assert.equal(browser.answer.result.title, http.answer.result.title);
    assert.equal(browser.answer.result.finalUrl, http.answer.result.finalUrl);
    assert.match(browser.record.logs.map((l: { message: string }) => l.message).join('\n'), /extraction script/);
    const converted = await api('POST', '/api/tasks/extract/script', { body: { extract: LIST } });
    assert.equal(converted.status, 200, converted.text);
    assert.match(converted.body.script, /applyMapping/);
    const scripted = await run({ mode: 'scrape', extractionScript: converted.body.script });
    assert.deepEqual(scripted.answer.result.data, http.answer.result.data);
  });

  it('refuses bad mappings with 400 and the reasons', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ extract: { list: 'li[', fields: [{ name: 'a' }] } }, /extract\.list "li\[" is not a valid CSS selector/],
      [{ extract: { fields: [{ name: 'a', selector: 'h1' }, { name: 'a', selector: 'h2' }] } }, /fields\[1\] \(a\): the name is used by an earlier field/],
      [{ extract: { fields: [{ name: 'a' }] } }, /a selector is needed when there is no list/],
      [{ extract: { fields: [{ name: 'a', selector: 'h1', type: 'money' }] } }, /extract/],
      [{ extract: { fields: [] } }, /fields/],
      [{ extract: { fields: [{ name: 'a', selector: 'h1' }] }, extractionScript: 'return 1' }, /either extract .* or an extractionScript/],
    ];
    for (const [task, reason] of cases) {
      const res = await save({ mode: 'scrape', ...task });
      assert.equal(res.status, 400, `${JSON.stringify(task)}: ${res.text}`);
      assert.equal(res.body.error, 'VALIDATION_ERROR');
      assert.match(res.body.details, reason);
    }
    const script = await api('POST', '/api/tasks/extract/script', { body: { extract: { list: '::x', fields: [{ name: 'a' }] } } });
    assert.equal(script.status, 400);
    assert.match(script.body.details, /not a valid CSS selector/);
  });

  it('refuses mode http with actions or an extraction script, on save and on patch', async () => {
    const withActions = await save({ actions: [{ type: 'click', selector: 'a' }] });
    assert.equal(withActions.status, 400);
    assert.match(withActions.body.details, /mode http runs no browser, so it cannot run actions \(this task has 1\)/);
    const withScript = await save({ extractionScript: 'return document.title' });
    assert.equal(withScript.status, 400);
    assert.match(withScript.body.details, /mode http runs no JavaScript/);
    const disabledOnly = await save({ actions: [{ type: 'click', selector: 'a', disabled: true }], extract: LIST });
    assert.equal(disabledOnly.status, 200, 'disabled actions do not run: accepted');

    const agent = await save({ mode: 'agent', actions: [{ type: 'click', selector: 'a' }] });
    assert.equal(agent.status, 200);
    const patched = await api('PATCH', `/api/tasks/${agent.body.id}`, { body: { mode: 'http' } });
    assert.equal(patched.status, 400);
    assert.match(patched.body.details, /cannot run actions/);
    const fixed = await api('PATCH', `/api/tasks/${agent.body.id}`, { body: { mode: 'http', actions: [], extract: LIST } });
    assert.equal(fixed.status, 200, fixed.text);
  });

  it('goes through the task proxy', async () => {
    const added = await api('POST', '/api/settings/proxies', { body: { server: proxy.server, label: 'counting' } });
    assert.equal(added.status, 200, added.text);
    const proxyId = added.body.proxies.find((p: { server: string }) => p.server === proxy.server).id;
    const before = proxy.hosts.length;
    const { answer, record } = await run({ url: 'http://shop.example.test/page', proxyId, extract: { fields: [{ name: 'path', selector: '#proxied' }] } });
    assert.equal(answer.status, 'success', JSON.stringify(answer));
    assert.deepEqual(answer.result.data, { path: 'http://shop.example.test/page' });
    assert.equal(answer.result.title, 'Proxied shop.example.test');
    assert.deepEqual(proxy.hosts.slice(before), ['shop.example.test'], 'one request, no favicon, no browser');
    assert.ok(record.logs.some((l: { message: string }) => l.message === `using proxy ${proxy.server}/`));
  });

  it('ends in error for an error status, with the answer in the record', async () => {
    const { answer, record } = await run({ url: `${pages.origin}/missing.html`, extract: LIST });
    assert.equal(answer.status, 'error');
    assert.match(answer.result.error.message, /HTTP 404/);
    assert.equal(record.status, 'error');
  });
});

describe('mode http and the private-network rule', () => {
  let svc: TestService;
  let pages: PagesServer;
  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'false' });
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('refuses a private URL with ALLOW_PRIVATE_NETWORKS=false', async () => {
    const { apiKey } = await setupAdmin(svc);
    const saved = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'private', mode: 'http', url: `${pages.origin}${PAGE}`, actions: [], extract: LIST } });
    assert.equal(saved.status, 200, saved.text);
    const res = await svc.request('POST', `/api/tasks/${saved.body.id}/api`, { apiKey });
    assert.equal(res.body.status, 'error');
    assert.match(res.body.result.error.message, /refused: .*not public|refused/);
    assert.equal(pages.requests.length, 0, 'no request reached the page');
  });
});
