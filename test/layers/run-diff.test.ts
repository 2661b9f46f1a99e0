import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffResults } from '../../layers/run-intelligence/result-diff.js';

const before = [
  { sku: 'A1', name: 'Lamp', price: 19.5, seenAt: '10:00' },
  { sku: 'B2', name: 'Chair', price: 45, seenAt: '10:00' },
  { sku: 'C3', name: 'Desk', price: 120, seenAt: '10:00' },
];

test('first run: nothing to compare', () => {
  assert.equal(diffResults(undefined, before, { key: ['sku'] }), undefined);
});

test('same rows: nothing changed', () => {
  const diff = diffResults(before, structuredClone(before), { key: ['sku'] })!;
  assert.equal(diff.changed, false);
  assert.deepEqual(diff.counts, { added: 0, removed: 0, changed: 0 });
  assert.deepEqual([diff.added, diff.removed, diff.rows], [[], [], []]);
  assert.equal(diff.note, undefined);
});

test('rows added, removed and changed by key, with old and new values per field', () => {
  const after = [
    { sku: 'B2', name: 'Chair', price: 39, seenAt: '11:00' },
    { sku: 'C3', name: 'Desk', price: 120, seenAt: '11:00' },
    { sku: 'D4', name: 'Shelf', price: 60, seenAt: '11:00' },
  ];
  const diff = diffResults(before, after, { key: ['sku'], ignore: ['seenAt'] })!;
  assert.equal(diff.changed, true);
  assert.deepEqual(diff.counts, { added: 1, removed: 1, changed: 1 });
  assert.deepEqual(diff.added, [after[2]]);
  assert.deepEqual(diff.removed, [before[0]]);
  assert.deepEqual(diff.rows, [{ key: { sku: 'B2' }, fields: { price: { old: 45, new: 39 } } }]);
});

test('ignored fields do not count as changes', () => {
  const after = before.map((row) => ({ ...row, seenAt: '12:00' }));
  assert.equal(diffResults(before, after, { key: ['sku'], ignore: ['seenAt'] })!.changed, false);
  const counted = diffResults(before, after, { key: ['sku'] })!;
  assert.equal(counted.counts.changed, 3);
  assert.deepEqual(counted.rows[0]!.fields, { seenAt: { old: '10:00', new: '12:00' } });
});

test('a field that appears or disappears is a change; nested values compare deeply', () => {
  const old = [{ id: 1, offer: { price: 5, tags: ['a'] } }, { id: 2, stock: 3 }];
  const now = [{ id: 1, offer: { tags: ['a'], price: 5 } }, { id: 2 }];
  const diff = diffResults(old, now, { key: ['id'] })!;
  assert.deepEqual(diff.rows, [{ key: { id: 2 }, fields: { stock: { old: 3, new: undefined } } }]);
});

test('composite and nested keys; rows with the same key pair in order', () => {
  const old = [{ shop: { id: 'x' }, sku: 1, price: 1 }, { shop: { id: 'y' }, sku: 1, price: 2 }, { shop: { id: 'y' }, sku: 1, price: 3 }];
  const now = [{ shop: { id: 'y' }, sku: 1, price: 2 }, { shop: { id: 'x' }, sku: 1, price: 9 }];
  const diff = diffResults(old, now, { key: ['shop.id', 'sku'] })!;
  assert.deepEqual(diff.counts, { added: 0, removed: 1, changed: 1 });
  assert.deepEqual(diff.rows, [{ key: { 'shop.id': 'x', sku: 1 }, fields: { price: { old: 1, new: 9 } } }]);
  assert.deepEqual(diff.removed, [old[2]]);
});

test('without a key a row is identified by all its fields (less the ignored): only added or removed', () => {
  const diff = diffResults(
    [{ a: 1, b: 2, t: 1 }, { a: 2, b: 2, t: 1 }],
    [{ b: 2, a: 1, t: 2 }, { a: 2, b: 3, t: 2 }],
    { ignore: ['t'] },
  )!;
  assert.deepEqual(diff.counts, { added: 1, removed: 1, changed: 0 });
  assert.deepEqual(diff.added, [{ a: 2, b: 3, t: 2 }]);
  assert.deepEqual(diff.removed, [{ a: 2, b: 2, t: 1 }]);
});

test('without a key, rows in step, shifted by a removal or an addition, moved or repeated are matched as a whole-row map would', () => {
  const rows = (ids: number[], t = 1) => ids.map((id) => ({ id, v: id * 10, t }));
  // One removed near the start (the rest shift by one), one changed, one added in the middle, two moved to the end.
  const old = rows([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const now = [...rows([1, 3, 4], 2), { id: 5, v: 0, t: 2 }, ...rows([6, 7], 2), { id: 99, v: 1, t: 2 }, ...rows([10, 8, 9], 2)];
  const diff = diffResults(old, now, { ignore: ['t'] })!;
  assert.deepEqual(diff.counts, { added: 2, removed: 2, changed: 0 });
  assert.deepEqual(diff.added, [{ id: 5, v: 0, t: 2 }, { id: 99, v: 1, t: 2 }], 'in the order of the new run');
  assert.deepEqual(diff.removed, [{ id: 2, v: 20, t: 1 }, { id: 5, v: 50, t: 1 }], 'in the order of the old run');
  // Repeated rows count as many times as they appear; a field only one row has (even null) makes rows differ.
  const repeated = diffResults([{ a: 1 }, { a: 1 }, { a: 2 }], [{ a: 1 }, { a: 2 }, { a: 2 }])!;
  assert.deepEqual([repeated.added, repeated.removed], [[{ a: 2 }], [{ a: 1 }]]);
  const extra = diffResults([{ a: 1 }], [{ a: 1, b: null }])!;
  assert.deepEqual(extra.counts, { added: 1, removed: 1, changed: 0 });
  assert.equal(diffResults([{ a: 1, b: { x: 1 } }], [{ b: { x: 1 }, a: 1 }])!.changed, false, 'top-level fields in any order');
});

test('data that is not an array: an object is one row, a scalar a row { value }, null no row', () => {
  const object = diffResults({ title: 'Old', price: 1 }, { title: 'New', price: 1 })!;
  assert.deepEqual(object.counts, { added: 1, removed: 1, changed: 0 }, 'without a key the whole object is its identity');
  const keyed = diffResults({ id: 7, title: 'Old' }, { id: 7, title: 'New' }, { key: ['id'] })!;
  assert.deepEqual(keyed.rows, [{ key: { id: 7 }, fields: { title: { old: 'Old', new: 'New' } } }]);
  const scalar = diffResults('19.99', '17.99')!;
  assert.deepEqual([scalar.added, scalar.removed], [[{ value: '17.99' }], [{ value: '19.99' }]]);
  assert.equal(diffResults(42, 42)!.changed, false);
  const fromNothing = diffResults(null, [{ a: 1 }])!;
  assert.deepEqual(fromNothing.counts, { added: 1, removed: 0, changed: 0 }, 'a previous run with no data is a baseline of no rows');
});

test('a large diff is cut per kind with a note; counts stay whole', () => {
  const old = Array.from({ length: 300 }, (_, i) => ({ id: i, v: 0 }));
  const now = Array.from({ length: 300 }, (_, i) => ({ id: i + 150, v: 1 }));
  const diff = diffResults(old, now, { key: ['id'] }, 100)!;
  assert.deepEqual(diff.counts, { added: 150, removed: 150, changed: 150 });
  assert.equal(diff.added.length, 100);
  assert.equal(diff.removed.length, 100);
  assert.equal(diff.rows.length, 100);
  assert.equal(diff.note, 'cut to 100 rows per kind: 150 added, 150 removed, 150 changed in all');
});

test('large rows list fewer of them, so the stored diff stays about the byte cap', () => {
  const big = 'x'.repeat(10_000);
  const old = Array.from({ length: 50 }, (_, i) => ({ id: i, text: big }));
  const now = Array.from({ length: 50 }, (_, i) => ({ id: i + 50, text: big }));
  const diff = diffResults(old, now, { key: ['id'] }, 100, 64 * 1024)!;
  assert.deepEqual(diff.counts, { added: 50, removed: 50, changed: 0 });
  assert.ok(JSON.stringify(diff).length <= 64 * 1024 + 1024, `about the cap: ${JSON.stringify(diff).length}`);
  assert.equal(diff.added.length, 3);
  assert.equal(diff.note, 'cut to 3 rows per kind (the rows are large: at most about 64 KB listed): 50 added, 50 removed, 0 changed in all');
});
