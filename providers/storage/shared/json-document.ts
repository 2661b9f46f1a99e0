/**
 * Documents kept as exact JSON text, as the PostgreSQL and MongoDB providers do: what is stored is
 * exactly `JSON.stringify(doc)` and every read is a fresh parse, so a caller never shares an object
 * with the store. (The JSON provider keeps live objects and has its own rules.)
 */

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
