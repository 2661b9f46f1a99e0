/** Documents travel as JSON text: what is stored is exactly `JSON.stringify(doc)`, and every read is a fresh parse. */

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text to store and the copy to hand back (equal to what a later read returns). */
export function encode<T>(doc: T): { json: string; copy: T } {
  const json = JSON.stringify(doc);
  return { json, copy: JSON.parse(json) as T };
}

export function assertKeyed(store: string, key: string, doc: unknown): void {
  if (!isObject(doc) || typeof doc[key] !== 'string' || doc[key] === '') {
    throw new TypeError(`${store}: a document must be an object with a non-empty string ${key}`);
  }
}

/**
 * Validates what an update's `change` returned: a document (not a promise) with the same key.
 * Returns undefined for "leave it unchanged".
 */
export function checkChanged<T>(store: string, key: string, id: string, next: T | undefined): T | undefined {
  if (next === undefined) return undefined;
  if (isObject(next) && typeof next.then === 'function') throw new TypeError(`${store}: change must return the document, not a promise`);
  assertKeyed(store, key, next);
  if ((next as Record<string, unknown>)[key] !== id) throw new TypeError(`${store}: update must not change the ${key} (${id})`);
  return next;
}

/** An ISO timestamp as a Date for a timestamptz column; null when it is missing or not a date. */
export function timestampOf(value: unknown): Date | null {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms) : null;
}
