// The MongoDB counter update, without a server (none can be installed here; the contract suite runs it against
// MONGODB_URL): the pipeline is evaluated by a small interpreter of the operators it uses, for each case the
// contract names, and its values are checked to be literals.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Document } from 'mongodb';
import { counterPipeline } from '../../../providers/storage/mongodb/counter-store.js';
import { INDEXES } from '../../../providers/storage/mongodb/indexes.js';

type Doc = Record<string, unknown>;

/** Evaluates the aggregation expressions counterPipeline uses, as the server would, at `now`. */
function evaluate(expr: unknown, doc: Doc, now: Date): unknown {
  if (typeof expr === 'string') return expr === '$$NOW' ? now : expr.startsWith('$') ? doc[expr.slice(1)] : expr;
  if (typeof expr !== 'object' || expr === null || expr instanceof Date) return expr;
  const [op, raw] = Object.entries(expr)[0]!;
  const args = () => (raw as unknown[]).map((arg) => evaluate(arg, doc, now));
  const num = (value: unknown) => (value instanceof Date ? value.getTime() : (value as number));
  switch (op) {
    case '$literal': return raw;
    case '$cond': { const [test, yes, no] = raw as unknown[]; return evaluate(test, doc, now) ? evaluate(yes, doc, now) : evaluate(no, doc, now); }
    // A missing field sorts below any date, as in MongoDB.
    case '$gt': { const [a, b] = args(); return a !== undefined && num(a) > num(b); }
    case '$lte': { const [a, b] = args(); return num(a) <= num(b); }
    case '$not': return !args()[0];
    case '$and': return args().every(Boolean);
    case '$ifNull': { const [a, b] = args(); return a ?? b; }
    case '$max': return Math.max(...args().map(num));
    case '$add': { const values = args(); const sum = values.reduce<number>((acc, value) => acc + num(value), 0); return values.some((v) => v instanceof Date) ? new Date(sum) : sum; }
    default: throw new Error(`the interpreter does not know ${op}`);
  }
}

function run(pipeline: Document[], before: Doc | undefined, now: Date): Doc {
  let doc: Doc = { ...(before ?? { _id: 'k' }) };
  for (const stage of pipeline) {
    if (stage.$set) doc = { ...doc, ...Object.fromEntries(Object.entries(stage.$set as Doc).map(([key, expr]) => [key, evaluate(expr, doc, now)])) };
    else if (stage.$unset) for (const key of stage.$unset as string[]) delete doc[key];
  }
  return doc;
}

describe('mongodb counter update', () => {
  const now = new Date('2024-03-01T09:00:00Z');
  const later = (ms: number) => new Date(now.getTime() + ms);

  it('opens a window on a new key; grows a live count; starts over an expired one', () => {
    const fresh = run(counterPipeline(1, 60_000, 10, 't1'), undefined, now);
    assert.deepEqual(fresh, { _id: 'k', count: 1, expiresAt: later(60_000), token: 't1', touchedAt: now });
    const grown = run(counterPipeline(2, 999_999, undefined, 't2'), fresh, later(1000));
    assert.deepEqual([grown.count, grown.expiresAt, grown.token], [3, later(60_000), 't2'], 'the window did not move');
    const expired = run(counterPipeline(1, 60_000, 10, 't3'), grown, later(61_000));
    assert.deepEqual([expired.count, expired.expiresAt, expired.token], [1, later(121_000), 't3']);
  });

  it('refuses an add past the limit (only touchedAt changes), and takes back without opening a window or going below 0', () => {
    const full = { _id: 'k', count: 10, expiresAt: later(60_000), token: 'old', touchedAt: now };
    const refused = run(counterPipeline(1, 60_000, 10, 't4'), full, later(5));
    assert.deepEqual(refused, { ...full, touchedAt: later(5) });
    const back = run(counterPipeline(-12, 60_000, undefined, 't5'), full, later(5));
    assert.deepEqual([back.count, back.expiresAt, back.token], [0, later(60_000), 't5']);
    const stale = { ...full, expiresAt: later(-1) };
    const none = run(counterPipeline(-1, 60_000, undefined, 't6'), stale, now);
    assert.deepEqual([none.count, none.expiresAt], [0, later(-1)], 'an expired count stays expired');
  });

  it('passes every value as a literal (a key or number is never read as a field path) and keeps expired counts TTL-indexed', () => {
    const text = JSON.stringify(counterPipeline(3, 5000, 7, '$token-like'));
    assert.match(text, /\{"\$literal":"\$token-like"\}/);
    assert.match(text, /\{"\$literal":3\}/);
    assert.match(text, /\{"\$literal":7\}/);
    assert.deepEqual(INDEXES.expiring_counts, [{ key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 }]);
  });
});
