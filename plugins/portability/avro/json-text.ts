// Conversions between record values and the plain Avro values the codecs produce. Stored records come from many
// writers (older runners, imports), so every conversion accepts a value of the wrong type instead of throwing:
// an export must not stop half-way over one odd record.

export const text = (value: unknown): string => (typeof value === 'string' ? value : value == null ? '' : String(value));
export const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
export const boolOrNull = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

const INT_MAX = 2 ** 31 - 1;
export const intOrNull = (value: unknown): number | null =>
  (Number.isInteger(value) && Math.abs(value as number) <= INT_MAX ? (value as number) : null);
/** Avro `long` holds integers only; a fractional count of milliseconds is rounded. */
export const longOrNull = (value: unknown): number | null =>
  (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? Math.round(value) : null);
export const doubleOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** JSON text of a value, null for undefined. */
export const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** The keys of `source` not in `named` (and not undefined), as JSON object text; null when there are none. */
export function extraJson(source: Record<string, unknown>, named: ReadonlySet<string>): string | null {
  const extra: Record<string, unknown> = {};
  let any = false;
  for (const [key, value] of Object.entries(source)) {
    if (named.has(key) || value === undefined) continue;
    extra[key] = value;
    any = true;
  }
  return any ? JSON.stringify(extra) : null;
}

/** The object a JSON object text holds; an empty object for null. */
export const parseObject = (json: string | null): Record<string, unknown> =>
  (json === null ? {} : (JSON.parse(json) as Record<string, unknown>));

/** Copies the entries of `source` that are not null (Avro's "absent") into `target`. */
export function assignPresent<T extends object>(target: T, source: Record<string, unknown>): T {
  for (const [key, value] of Object.entries(source)) if (value !== null && value !== undefined) (target as Record<string, unknown>)[key] = value;
  return target;
}
