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

/** True for a duplicate-key write error. */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}
