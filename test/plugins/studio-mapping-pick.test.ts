// Picking a field mapping on a studio session's live page (README "Field mapping"), on the real service with real
// headless Chromium: a picked row gives the list selector of all the rows, a picked element inside a row its
// selector relative to the row with a suggested name and attribute, and the mapping built from the picks reads the
// same data as the hand-written one does in a real run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const PAGE = '/field-mapping/products.html';
const HAND_WRITTEN = {
  list: 'li.product',
  fields: [
    { name: 'name', selector: 'a.name' },
    { name: 'link', selector: 'a.name', attribute: 'href', type: 'url' },
    { name: 'price', selector: '.price', type: 'number' },
    { name: 'added', selector: 'time.added', type: 'date' },
    { name: 'photo', selector: 'img.photo', attribute: 'src', type: 'url' },
  ],
};

describe('studio: picking a field mapping', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let sessionId: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const pick = (body: Record<string, unknown>) => api('POST', `/api/studio/sessions/${sessionId}/mapping/pick`, { body });
  const centre = (box: { x: number; y: number; width: number; height: number }) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
    const opened = await api('POST', '/api/studio/sessions', { body: { url: `${pages.origin}${PAGE}` } });
    assert.equal(opened.status, 200, opened.text);
    sessionId = opened.body.sessionId;
  });
  after(async () => {
    if (sessionId) await api('DELETE', `/api/studio/sessions/${sessionId}`).catch(() => undefined);
    await svc?.close();
    await pages?.close();
  });

  it('builds the mapping from picks on the page, and it reads what the hand-written one does', async () => {
    // Where the second row's price is: picked by selector first, then by its point as the live view picks.
    const bySelector = await pick({ mode: 'field', rows: 'li.product', selector: '#products > li:nth-of-type(2) > span' });
    assert.equal(bySelector.status, 200, bySelector.text);
    const pricePoint = centre(bySelector.body.box);

    // A row, picked at the price inside it: the list of all the rows.
    const row = await pick({ mode: 'row', ...pricePoint });
    assert.equal(row.status, 200, row.text);
    assert.equal(row.body.list, 'li.product');
    assert.equal(row.body.count, 3);

    const price = await pick({ mode: 'field', rows: row.body.list, ...pricePoint });
    assert.equal(price.status, 200, price.text);
    assert.deepEqual({ ...price.body, box: undefined }, {
      selector: 'span.price', name: 'price', text: 'Price: -7 EUR', value: 'Price: -7 EUR', rowsWithMatch: 3, box: undefined,
    });
    const link = await pick({ mode: 'field', rows: row.body.list, selector: '[data-sku="C-3"] a' });
    assert.equal(link.status, 200, link.text);
    assert.equal(link.body.selector, 'a.name');
    assert.equal(link.body.attribute, 'href');
    assert.equal(link.body.type, 'url');
    const linkText = await pick({ mode: 'field', rows: row.body.list, ...centre(link.body.box) });
    assert.equal(linkText.body.text, 'Gamma', 'picked at its point: the same link');
    const added = await pick({ mode: 'field', rows: row.body.list, selector: '[data-sku="A-1"] time' });
    assert.equal(added.body.selector, 'time.added');
    const photo = await pick({ mode: 'field', rows: row.body.list, selector: '[data-sku="A-1"] img' });
    assert.deepEqual([photo.body.selector, photo.body.attribute, photo.body.type, photo.body.rowsWithMatch], ['img.photo', 'src', 'url', 2]);
    const whole = await pick({ mode: 'field', rows: row.body.list, selector: '[data-sku="B-2"]' });
    assert.equal(whole.body.selector, '', 'the row itself');

    // The mapping as the editor fills it from the picks (the types chosen by the person where none was suggested).
    const picked = {
      list: row.body.list,
      fields: [
        { name: 'name', selector: link.body.selector },
        { name: 'link', selector: link.body.selector, attribute: link.body.attribute, type: link.body.type },
        { name: price.body.name, selector: price.body.selector, type: 'number' },
        { name: added.body.name, selector: added.body.selector, type: 'date' },
        { name: photo.body.name, selector: photo.body.selector, attribute: photo.body.attribute, type: photo.body.type },
      ],
    };
    const preview = await api('POST', `/api/studio/sessions/${sessionId}/mapping/preview`, { body: { extract: picked } });
    assert.equal(preview.status, 200, preview.text);
    assert.equal(preview.body.data.length, 3);
    assert.equal(preview.body.data[0].price, 1234.5);

    const task = await api('POST', '/api/tasks', { body: { name: 'hand-written', mode: 'scrape', url: `${pages.origin}${PAGE}`, actions: [], extract: HAND_WRITTEN } });
    assert.equal(task.status, 200, task.text);
    const run = await api('POST', `/api/tasks/${task.body.id}/api`);
    assert.equal(run.body.status, 'success', JSON.stringify(run.body));
    assert.deepEqual(preview.body.data, run.body.result.data);
  });

  it('answers 400 with the reason when nothing fits, 404 for a session that is not open', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ mode: 'row', selector: 'h1' }, /nothing repeats/],
      [{ mode: 'field', rows: 'li.product', selector: 'h1' }, /in none of the rows/],
      [{ mode: 'field', selector: 'h1' }, /needs rows/],
      [{ mode: 'row' }, /x and y/],
      [{ mode: 'row', selector: 'li[' }, /not valid CSS/],
    ];
    for (const [body, reason] of cases) {
      const refused = await pick(body);
      assert.equal(refused.status, 400, `${JSON.stringify(body)}: ${refused.text}`);
      assert.match(refused.body.details, reason);
    }
    const bad = await api('POST', `/api/studio/sessions/${sessionId}/mapping/preview`, { body: { extract: { list: 'li[', fields: [{ name: 'a' }] } } });
    assert.equal(bad.status, 400, bad.text);
    const gone = await api('POST', '/api/studio/sessions/studio_nope/mapping/pick', { body: { mode: 'row', x: 1, y: 1 } });
    assert.equal(gone.status, 404, gone.text);
  });
});
