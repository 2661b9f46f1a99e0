import type { Document } from 'mongodb';

/**
 * How a document sits in a collection. The document itself is kept as its exact JSON text in
 * `json` (MongoDB would refuse keys starting with `$`, turn `undefined` into null and change
 * number types); queryable fields are copied beside it. `_rev` grows on every write and makes
 * compare-and-swap updates possible; `seq` keeps insertion order.
 */
export interface Stored extends Document {
  _id: string;
  json: string;
  _rev?: number;
  seq?: number;
}

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

/** Validates what an update's `change` returned; undefined means "leave it unchanged". */
export function checkChanged<T>(store: string, key: string, id: string, next: T | undefined): T | undefined {
  if (next === undefined) return undefined;
  if (isObject(next) && typeof next.then === 'function') throw new TypeError(`${store}: change must return the document, not a promise`);
  assertKeyed(store, key, next);
  if ((next as Record<string, unknown>)[key] !== id) throw new TypeError(`${store}: update must not change the ${key} (${id})`);
  return next;
}

/** True for a duplicate-key write error. */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}
