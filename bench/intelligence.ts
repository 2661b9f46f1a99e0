/**
 * `npm run bench:intelligence`: the cost of run intelligence on a large result, in this process, in parts:
 * - `schema`: checking a JSON Schema (Ajv, compiled once per task) on 10,000 rows; target under 50 ms. Baseline in
 *   the same run: a hand-written loop over the rows testing the same fields' types.
 * - `diff`: diffing two results of 10,000 rows by a key (5 % changed, 1 % added, 1 % removed, one field ignored);
 *   target under 100 ms. Baseline in the same run: JSON.stringify of both results (what storing them costs anyway).
 * - `screenshot`: comparing two 1280x720 PNG screenshots (decode both, pixelmatch, encode the diff image); no target.
 *   Baseline in the same run: decoding both PNGs only.
 * Each figure is the median of ROUNDS rounds after warm-up. `BENCH_ONLY=schema` runs only that part,
 * `BENCH_SKIP=diff` all but that. Exits 0 unless the bench itself could not run.
 */
import { performance } from 'node:perf_hooks';
import { checkExpectations } from '../layers/run-intelligence/expectations.js';
import { diffResults } from '../layers/run-intelligence/result-diff.js';
import { PNG } from 'pngjs';
import { diffScreenshots } from '../layers/run-intelligence/screenshot-diff.js';
import { median } from './support/children.js';
import { fmt, formatTable, verdict, type Row } from './support/report.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const WARMUPS = 3;
const only = process.env.BENCH_ONLY?.split(',');
const skip = process.env.BENCH_SKIP?.split(',') ?? [];
const wanted = (part: string) => (only ? only.includes(part) : !skip.includes(part));
const say = (line: string) => process.stdout.write(`${line}\n`);

interface Product { sku: string; name: string; price: number; stock: number; url: string; tags: string[]; seenAt: string }

function products(n: number, seed: string): Product[] {
  return Array.from({ length: n }, (_, i) => ({
    sku: `SKU-${i}`, name: `Product ${i}`, price: 10 + (i % 97), stock: i % 13, url: `https://shop.example/p/${i}`,
    tags: ['a', `t${i % 7}`], seenAt: seed,
  }));
}

function timeMedian(work: () => unknown): number {
  for (let i = 0; i < WARMUPS; i++) work();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return median(times);
}

const rows: Row[] = [];

if (wanted('schema')) {
  const data = products(ROWS, '10:00');
  const schema = {
    type: 'array',
    items: {
      type: 'object', required: ['sku', 'name', 'price'],
      properties: { sku: { type: 'string' }, name: { type: 'string', minLength: 1 }, price: { type: 'number', minimum: 0 }, stock: { type: 'integer' }, url: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    },
  };
  const firstStart = performance.now();
  const first = checkExpectations({ schema }, data);
  const firstMs = performance.now() - firstStart;
  if (first.length > 0) throw new Error(`the bench's own data breaks its schema: ${first[0]!.message}`);
  const ms = timeMedian(() => checkExpectations({ schema, minRows: 1, required: ['sku', 'price'] }, data));
  const baseline = timeMedian(() => {
    let bad = 0;
    for (const row of data) {
      if (typeof row.sku !== 'string' || typeof row.name !== 'string' || row.name.length < 1 || typeof row.price !== 'number' || row.price < 0
        || !Number.isInteger(row.stock) || typeof row.url !== 'string' || !Array.isArray(row.tags) || !row.tags.every((t) => typeof t === 'string')) bad++;
    }
    return bad;
  });
  rows.push({ metric: `schema + minRows + required, ${ROWS.toLocaleString('en-US')} rows`, value: fmt.ms(ms), target: '< 50 ms', baseline: `${fmt.ms(baseline)} (hand loop)`, ratio: fmt.ratio(ms / baseline), result: verdict(ms < 50) });
  rows.push({ metric: 'same, first check (schema compiled)', value: fmt.ms(firstMs), target: '-', baseline: '-', ratio: '-', result: verdict(undefined) });
}

if (wanted('diff')) {
  const old = products(ROWS, '10:00');
  const now = products(ROWS, '11:00').filter((_, i) => i % 100 !== 0); // 1 % removed
  for (let i = 0; i < now.length; i += 20) now[i]!.price += 1; // 5 % changed
  for (let i = 0; i < ROWS / 100; i++) now.push({ ...products(1, '11:00')[0]!, sku: `NEW-${i}` }); // 1 % added
  const compare = { key: ['sku'], ignore: ['seenAt'] };
  const diff = diffResults(old, now, compare)!;
  const ms = timeMedian(() => diffResults(old, now, compare));
  const baseline = timeMedian(() => JSON.stringify(old).length + JSON.stringify(now).length);
  say(`diff: ${diff.counts.added} added, ${diff.counts.removed} removed, ${diff.counts.changed} changed${diff.note ? ` (${diff.note})` : ''}`);
  rows.push({ metric: `diff by key, ${ROWS.toLocaleString('en-US')} rows each`, value: fmt.ms(ms), target: '< 100 ms', baseline: `${fmt.ms(baseline)} (JSON.stringify both)`, ratio: fmt.ratio(ms / baseline), result: verdict(ms < 100) });
  const unkeyed = timeMedian(() => diffResults(old, now, { ignore: ['seenAt'] }));
  rows.push({ metric: 'diff without key (whole rows)', value: fmt.ms(unkeyed), target: '< 100 ms', baseline: `${fmt.ms(baseline)} (JSON.stringify both)`, ratio: fmt.ratio(unkeyed / baseline), result: verdict(unkeyed < 100) });
}

if (wanted('screenshot')) {
  // A page-like picture: bands of text-like noise; the second has one block moved.
  const shot = (shift: number) => {
    const image = new PNG({ width: 1280, height: 720 });
    for (let y = 0; y < 720; y++) {
      for (let x = 0; x < 1280; x++) {
        const ink = y % 24 < 14 && ((x * 7 + y * 13) % 11 < 4) && !(y > 200 && y < 300 && x > 100 + shift && x < 400 + shift);
        image.data.set(ink ? [30, 30, 30, 255] : [255, 255, 255, 255], (y * 1280 + x) * 4);
      }
    }
    return PNG.sync.write(image);
  };
  const before = shot(0);
  const after = shot(40);
  const found = diffScreenshots(before, after);
  say(`screenshot: ${found.differentPct}% of pixels differ`);
  const ms = timeMedian(() => diffScreenshots(before, after));
  const baseline = timeMedian(() => [PNG.sync.read(before), PNG.sync.read(after)]);
  rows.push({ metric: 'screenshot diff, 1280x720 PNGs', value: fmt.ms(ms), target: '-', baseline: `${fmt.ms(baseline)} (decode both)`, ratio: fmt.ratio(ms / baseline), result: verdict(undefined) });
}

say(formatTable(rows));
