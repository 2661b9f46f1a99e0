import type { CompareOption } from './compare-option.js';
import { fieldOf, rowsOf } from './rows.js';

/** A row present in both runs whose fields differ: the row's key and, per field, the old and new value. */
export interface ChangedRow {
  key: Record<string, unknown>;
  fields: Record<string, { old: unknown; new: unknown }>;
}

/** What changed between two runs' data. Counts are always whole; the listed rows stop at the cap (`note` says so). */
export interface ResultDiff {
  changed: boolean;
  counts: { added: number; removed: number; changed: number };
  added: unknown[];
  removed: unknown[];
  rows: ChangedRow[];
  note?: string;
}

/** Rows listed per kind (added, removed, changed) before the diff is cut. */
export const DIFF_ROWS_CAP = 100;
/** The listed rows' JSON at most about this long: larger, fewer rows are listed. */
export const DIFF_MAX_BYTES = 256 * 1024;

/**
 * Compares two runs' `result.data` (rows as rows.ts reads them). `previous` undefined means there is no earlier
 * successful run: nothing to compare, undefined back. Rows with the same key are paired in order of appearance.
 */
export function diffResults(previous: unknown, current: unknown, compare: CompareOption = {}, cap = DIFF_ROWS_CAP, maxBytes = DIFF_MAX_BYTES): ResultDiff | undefined {
  if (previous === undefined) return undefined;
  const ignore = new Set(compare.ignore ?? []);
  const key = compare.key && compare.key.length > 0 ? compare.key : undefined;
  const shapes: Shapes = new Map();
  const keyOf = !key ? (row: unknown) => keyText(row, shapes, ignore)
    : key.length === 1 ? (row: unknown) => keyText(fieldOf(row, key[0]!), shapes)
      : (row: unknown) => keyText(key.map((field) => fieldOf(row, field)), shapes);

  let earlier = rowsOf(previous);
  let later = rowsOf(current);
  // Without a key, equal rows cancel out wherever they stand: the pairs in step (most rows, usually) are set
  // aside first, field by field, and only the rest get their whole-row text (the costly part) and a map.
  if (!key) [earlier, later] = unpaired(earlier, later, ignore);
  const before = new Map<string, unknown[]>();
  for (const row of earlier) {
    const k = keyOf(row);
    const list = before.get(k);
    if (list) list.push(row);
    else before.set(k, [row]);
  }

  const diff: ResultDiff = { changed: false, counts: { added: 0, removed: 0, changed: 0 }, added: [], removed: [], rows: [] };
  for (const row of later) {
    const k = keyOf(row);
    const list = before.get(k);
    if (!list) {
      diff.counts.added++;
      if (diff.added.length < cap) diff.added.push(row);
      continue;
    }
    const old = list.shift();
    if (list.length === 0) before.delete(k);
    if (!key) continue; // keyed by the whole row: equal keys mean equal rows
    const fields = changedFields(old, row, ignore, key);
    if (fields) {
      diff.counts.changed++;
      if (diff.rows.length < cap) diff.rows.push({ key: Object.fromEntries(key.map((field) => [field, fieldOf(row, field)])), fields });
    }
  }
  for (const list of before.values()) {
    for (const row of list) {
      diff.counts.removed++;
      if (diff.removed.length < cap) diff.removed.push(row);
    }
  }
  const { added, removed, changed } = diff.counts;
  diff.changed = added + removed + changed > 0;
  let listed = cap;
  // Large rows: fewer of them, so the stored execution stays small.
  while (listed > 1 && JSON.stringify([diff.added, diff.removed, diff.rows]).length > maxBytes) {
    listed = Math.floor(listed / 2);
    diff.added.length = Math.min(diff.added.length, listed);
    diff.removed.length = Math.min(diff.removed.length, listed);
    diff.rows.length = Math.min(diff.rows.length, listed);
  }
  if (added > listed || removed > listed || changed > listed) {
    diff.note = `cut to ${listed} rows per kind${listed < cap ? ` (the rows are large: at most about ${Math.round(maxBytes / 1024)} KB listed)` : ''}: ${added} added, ${removed} removed, ${changed} changed in all`;
  }
  return diff;
}

/**
 * The rows of both lists that are not equal to a row standing at the same place, or one place further in the
 * other list (a row added or removed shifts the rest by one). Each list keeps its order. Equal: as the whole-row
 * key sees rows (top-level fields in any order, `ignore` left out, a missing field as null).
 */
function unpaired(earlier: unknown[], later: unknown[], ignore: Set<string>): [unknown[], unknown[]] {
  const restEarlier: unknown[] = [];
  const restLater: unknown[] = [];
  const same = (a: unknown, b: unknown) => sameRow(a, b, ignore);
  let i = 0;
  let j = 0;
  while (i < later.length && j < earlier.length) {
    if (same(later[i], earlier[j])) {
      i++;
      j++;
    } else if (j + 1 < earlier.length && same(later[i], earlier[j + 1])) {
      restEarlier.push(earlier[j++]); // removed here: the next round pairs the rest
    } else if (i + 1 < later.length && same(later[i + 1], earlier[j])) {
      restLater.push(later[i++]); // added here
    } else {
      restLater.push(later[i++]);
      restEarlier.push(earlier[j++]);
    }
  }
  while (j < earlier.length) restEarlier.push(earlier[j++]);
  while (i < later.length) restLater.push(later[i++]);
  return [restEarlier, restLater];
}

function sameRow(a: unknown, b: unknown, ignore: Set<string>): boolean {
  const isRecord = (row: unknown) => row !== null && typeof row === 'object' && !Array.isArray(row);
  if (!isRecord(a) || !isRecord(b)) return deepEqual(a, b);
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let fields = 0;
  for (const name in x) {
    if (!Object.hasOwn(x, name) || ignore.has(name)) continue;
    if (!Object.hasOwn(y, name) || !deepEqual(x[name] ?? null, y[name] ?? null)) return false;
    fields++;
  }
  for (const name in y) if (Object.hasOwn(y, name) && !ignore.has(name)) fields--;
  return fields === 0; // the same field names
}

function changedFields(old: unknown, row: unknown, ignore: Set<string>, key: string[]): ChangedRow['fields'] | undefined {
  const a = asRecord(old);
  const b = asRecord(row);
  let fields: ChangedRow['fields'] | undefined;
  const skip = (name: string) => ignore.has(name) || key.includes(name);
  for (const name in a) {
    if (!Object.hasOwn(a, name) || skip(name)) continue;
    if (!deepEqual(a[name], b[name])) (fields ??= {})[name] = { old: a[name], new: b[name] };
  }
  for (const name in b) {
    if (!Object.hasOwn(b, name) || Object.hasOwn(a, name) || skip(name)) continue;
    (fields ??= {})[name] = { old: undefined, new: b[name] };
  }
  return fields;
}

function asRecord(row: unknown): Record<string, unknown> {
  return row !== null && typeof row === 'object' && !Array.isArray(row) ? (row as Record<string, unknown>) : { value: row };
}

/**
 * A value's identity as text. A row's top-level fields count in any order (sorted once per shape) and `skip`
 * leaves some out; values inside are JSON as they are. Hand-built around JSON.stringify: the diff's hot path
 * (bench/intelligence.ts).
 */
function keyText(value: unknown, shapes: Shapes, skip?: Set<string>): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value) ?? String(value);
  const names = Object.keys(value);
  const shape = names.join('\u0000');
  let known = shapes.get(shape);
  if (!known) {
    const kept = names.filter((name) => !skip?.has(name)).sort();
    known = { kept, text: JSON.stringify(kept) };
    shapes.set(shape, known);
  }
  const values = new Array<unknown>(known.kept.length);
  for (let i = 0; i < values.length; i++) values[i] = (value as Record<string, unknown>)[known.kept[i]!] ?? null;
  return known.text + JSON.stringify(values);
}

/** Rows mostly share a shape: their kept field names sorted once per shape, not per row. One map per diff. */
type Shapes = Map<string, { kept: string[]; text: string }>;

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
