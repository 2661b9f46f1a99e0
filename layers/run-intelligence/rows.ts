/**
 * The rows of a run's `result.data`, as expectations and diffs see them: an array is its rows; a single object is
 * one row; nothing (null or undefined) is no row; any other value is one row `{ value }`.
 */
export function rowsOf(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (data === null || data === undefined) return [];
  if (typeof data === 'object') return [data];
  return [{ value: data }];
}

/** A field of a row by dotted path (`price.amount`); undefined when the row is not an object or the path is absent. */
export function fieldOf(row: unknown, path: string): unknown {
  if (!path.includes('.')) return row !== null && typeof row === 'object' ? (row as Record<string, unknown>)[path] : undefined;
  let value: unknown = row;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Missing or empty: undefined, null, a blank string, an empty array. `0` and `false` are values. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}
