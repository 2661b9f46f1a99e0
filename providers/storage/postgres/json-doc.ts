// The exact-JSON helpers live in ../shared; execution-store.ts still imports them from here.
export { assertKeyed, checkChanged, encode, isObject } from '../shared/json-document.js';

/** An ISO timestamp as a Date for a timestamptz column; null when it is missing or not a date. */
export function timestampOf(value: unknown): Date | null {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms) : null;
}
