// The one extraction logic of a field mapping (layers/field-mapping), over cheerio: text normalisation, the types,
// the base of URLs, a mapping without a list, and the checks of bad mappings. runs-http-mode.test.ts checks that
// the page script made from it gives the same data in Chromium.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractHtml } from '../../layers/field-mapping/extract-html.js';
import { mappingProblems } from '../../layers/field-mapping/mapping-problems.js';
import { mappingScript } from '../../layers/field-mapping/mapping-script.js';
import { extractionProblems } from '../../layers/field-mapping/task-rules.js';

const PAGE = 'https://shop.example/a/list.html';
const cell = async (html: string, type?: 'text' | 'number' | 'date' | 'url', attribute?: string) =>
  ((await extractHtml(`<div id="v" data-x="${attribute ?? ''}">${html}</div>`, PAGE, {
    fields: [{ name: 'v', selector: '#v', ...(type ? { type } : {}), ...(attribute ? { attribute: 'data-x' } : {}) }],
  })).data as { v: unknown }).v;

describe('field mapping: values', () => {
  it('collapses whitespace runs (tabs, newlines, no-break spaces) to one space and trims, text and attributes alike', async () => {
    assert.equal(await cell('\n\t  Alpha&nbsp;&nbsp; <b>beta</b>\n gamma  '), 'Alpha beta gamma');
    assert.equal(await cell('', undefined, '  two \n words '), 'two words');
    assert.equal(await cell('a<br>b<script>/*x*/</script>'), 'ab/*x*/', 'textContent, scripts included, as the page reads it');
  });

  it('reads the first number, commas as thousands separators', async () => {
    const cases: [string, number | null][] = [
      ['$1,234.50', 1234.5], ['Price: -7 EUR', -7], ['4.5 out of 5', 4.5], ['.25', 0.25], ['free', null], ['', null],
    ];
    for (const [text, expected] of cases) assert.equal(await cell(text, 'number'), expected, text);
  });

  it('reads dates as ISO 8601, null when unparsable', async () => {
    assert.equal(await cell('2024-03-05T10:00:00Z', 'date'), '2024-03-05T10:00:00.000Z');
    assert.equal(await cell('2023-12-31', 'date'), '2023-12-31T00:00:00.000Z');
    assert.equal(await cell('soon', 'date'), null);
  });

  it('resolves URLs against the page URL, or its <base href>; empty is null', async () => {
    assert.equal(await cell('', 'url', '../b/c.html?x=1'), 'https://shop.example/b/c.html?x=1');
    assert.equal(await cell('', 'url', ' '), null);
    const based = await extractHtml('<base href="https://cdn.example/img/"><a href="p.png">x</a>', PAGE, { fields: [{ name: 'u', selector: 'a', attribute: 'href', type: 'url' }] });
    assert.deepEqual(based.data, { u: 'https://cdn.example/img/p.png' });
  });

  it('gives null for a selector matching nothing or a missing attribute, and reads rows with the row itself', async () => {
    const { data, title } = await extractHtml('<title> T\n x </title><ul><li data-id="1">one</li><li>two</li></ul>', PAGE, {
      list: 'li', fields: [{ name: 'text' }, { name: 'id', attribute: 'data-id' }, { name: 'none', selector: 'span' }],
    });
    assert.deepEqual(data, [{ text: 'one', id: '1', none: null }, { text: 'two', id: null, none: null }]);
    assert.equal(title, 'T x');
    assert.deepEqual((await extractHtml('<p>x</p>', PAGE, undefined)).data, null);
  });

  it('writes a script that carries the mapping and the one extraction function', () => {
    const script = mappingScript({ list: 'li', fields: [{ name: 'a', selector: 'b', type: 'number' }] });
    assert.match(script, /const mapping = \{\n {2}"list": "li"/);
    assert.match(script, /const applyMapping = function applyMapping|const applyMapping = \(?function/);
    assert.match(script, /return applyMapping\(mapping, \{/);
    assert.ok(!script.includes('{$'), 'no run-variable placeholder the runner would fill');
  });
});

describe('field mapping: checks', () => {
  it('names each problem of a mapping', async () => {
    assert.deepEqual(await mappingProblems({ list: 'li', fields: [{ name: 'a' }] }), []);
    const problems = await mappingProblems({ list: 'li[', fields: [{ name: 'a', selector: 'b]' }, { name: 'a' }] });
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.deepEqual(await mappingProblems({ fields: [{ name: 'a', selector: ' ' }] }), ['extract.fields[0] (a): a selector is needed when there is no list (there is no row to read)']);
  });

  it('refuses mode http with actions or a script, and a mapping with a script', async () => {
    const extract = { fields: [{ name: 'a', selector: 'h1' }] };
    assert.deepEqual(await extractionProblems({ mode: 'http', actions: [{ type: 'click', disabled: true }], extract }), []);
    assert.equal((await extractionProblems({ mode: 'http', actions: [{ type: 'click' }] })).length, 1);
    assert.equal((await extractionProblems({ mode: 'http', actions: [], extractionScript: 'return 1' })).length, 1);
    assert.equal((await extractionProblems({ mode: 'scrape', actions: [], extract, extractionScript: 'return 1' })).length, 1);
    assert.match((await extractionProblems({ mode: 'scrape', extract: { fields: 'x' } }))[0]!, /extract must be/);
  });
});
