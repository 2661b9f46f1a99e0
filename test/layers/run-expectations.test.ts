import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkExpectations, schemaProblem } from '../../layers/run-intelligence/expectations.js';

const products = [
  { name: 'Lamp', price: 19.5, tags: ['home'] },
  { name: 'Chair', price: 45, tags: ['home'] },
  { name: 'Desk', price: 120, tags: ['office'] },
];

test('expectations that all hold give no violations', () => {
  const violations = checkExpectations({
    schema: { type: 'array', items: { type: 'object', required: ['name', 'price'], properties: { price: { type: 'number' } } } },
    minRows: 1, maxRows: 10, required: ['name', 'price', 'tags'], drift: { rowsDownPct: 50 },
  }, products, { rows: 4 });
  assert.deepEqual(violations, []);
});

test('schema: each error names the row\'s field and shows that row', () => {
  const data = [...products, { name: 'Shelf', price: 'n/a' }, { price: 3 }];
  const violations = checkExpectations({
    schema: { type: 'array', items: { type: 'object', required: ['name'], properties: { price: { type: 'number' } } } },
  }, data);
  assert.equal(violations.length, 2);
  const type = violations.find((v) => v.field === 'price')!;
  assert.equal(type.rule, 'schema');
  assert.match(type.message, /\/3\/price must be number/);
  assert.deepEqual(type.examples, [{ name: 'Shelf', price: 'n/a' }]);
  const missing = violations.find((v) => v.field === 'name')!;
  assert.match(missing.message, /must have required property 'name'/);
  assert.deepEqual(missing.examples, [{ price: 3 }]);
});

test('schema: data that is not an array is its own example; formats are known', () => {
  const violations = checkExpectations({ schema: { type: 'object', properties: { url: { type: 'string', format: 'uri' } } } }, { url: 'not a url' });
  assert.equal(violations.length, 1);
  assert.equal(violations[0]!.field, 'url');
  assert.deepEqual(violations[0]!.examples, [{ url: 'not a url' }]);
  assert.deepEqual(checkExpectations({ schema: { type: 'array' } }, null).map((v) => v.message), ['data must be array']);
});

test('schema: many errors are listed up to ten, the rest counted', () => {
  const data = Array.from({ length: 25 }, (_, i) => ({ n: String(i) }));
  const violations = checkExpectations({ schema: { type: 'array', items: { properties: { n: { type: 'number' } } } } }, data);
  assert.equal(violations.length, 11);
  assert.equal(violations[10]!.message, 'and 15 more schema errors');
});

test('schemaProblem says why a schema cannot be compiled', () => {
  assert.equal(schemaProblem({ type: 'array' }), undefined);
  assert.match(schemaProblem({ type: 'no-such-type' }) ?? '', /type/);
});

test('minRows and maxRows count an array\'s rows, an object as one row, null as none', () => {
  assert.deepEqual(checkExpectations({ minRows: 3, maxRows: 3 }, products), []);
  const few = checkExpectations({ minRows: 4 }, products);
  assert.deepEqual(few.map((v) => [v.rule, v.message]), [['minRows', '3 rows, expected at least 4']]);
  assert.equal(few[0]!.examples.length, 3);
  assert.deepEqual(checkExpectations({ maxRows: 2 }, products).map((v) => [v.rule, v.message]), [['maxRows', '3 rows, expected at most 2']]);
  assert.deepEqual(checkExpectations({ minRows: 1 }, { one: 1 }), []);
  assert.deepEqual(checkExpectations({ minRows: 1 }, null).map((v) => v.message), ['0 rows, expected at least 1']);
  assert.deepEqual(checkExpectations({ minRows: 1 }, []).map((v) => v.message), ['0 rows, expected at least 1']);
});

test('required: a field missing, null, blank or an empty list in any row is named with the rows that lack it', () => {
  const data = [
    { name: 'Lamp', price: 19.5, offer: { until: '2026-12-31' } },
    { name: '  ', price: 0, offer: { until: null } },
    { name: 'Desk', price: null, tags: [] },
    { name: 'Shelf', price: false },
  ];
  const violations = checkExpectations({ required: ['name', 'price', 'tags', 'offer.until'] }, data);
  assert.deepEqual(violations.map((v) => [v.rule, v.field, v.message]), [
    ['required', 'name', 'name is missing or empty in 1 of 4 rows'],
    ['required', 'price', 'price is missing or empty in 1 of 4 rows'], // 0 and false are values
    ['required', 'tags', 'tags is missing or empty in 4 of 4 rows'],
    ['required', 'offer.until', 'offer.until is missing or empty in 3 of 4 rows'],
  ]);
  assert.deepEqual(violations[0]!.examples, [data[1]]);
  assert.equal(violations[2]!.examples.length, 3, 'a few example rows, not all');
});

test('drift: rows down or up by more than the share against the previous successful run', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));
  const expect = { drift: { rowsDownPct: 50, rowsUpPct: 100 } };
  assert.deepEqual(checkExpectations(expect, rows(50), { rows: 100 }), [], 'exactly 50 % down is allowed');
  const down = checkExpectations(expect, rows(40), { rows: 100 });
  assert.deepEqual(down.map((v) => [v.rule, v.message]), [['drift', 'rows fell from 100 to 40 (60 %), more than 50 %']]);
  const up = checkExpectations(expect, rows(250), { rows: 100 });
  assert.deepEqual(up.map((v) => [v.rule, v.message]), [['drift', 'rows grew from 100 to 250 (150 %), more than 100 %']]);
  assert.deepEqual(checkExpectations(expect, rows(0), undefined), [], 'a first run has nothing to drift from');
  assert.deepEqual(checkExpectations(expect, rows(5), { rows: 0 }), [], 'an empty previous run gives no share');
});

test('several rules break together and each is listed', () => {
  const violations = checkExpectations({ minRows: 5, required: ['sku'], drift: { rowsDownPct: 10 } }, products, { rows: 10 });
  assert.deepEqual(violations.map((v) => v.rule), ['minRows', 'required', 'drift']);
});
